import Crypto
import Foundation
import Hummingbird

/// Checks the operator credential (`Authorization: Bearer TOKEN`) for the hash banks' operator API.
struct OperatorAuthenticator: Sendable {
    private let tokenDigest: SHA256Digest?

    /// An authenticator for `token`; with `nil` every operator request is refused.
    init(token: String?) {
        tokenDigest = token.map { SHA256.hash(data: Data($0.utf8)) }
    }

    /// Passes when the request carries the operator token, compared as SHA-256 digests (swift-crypto's digest
    /// equality is constant-time).
    func authenticate(_ request: Request) throws {
        guard let tokenDigest else {
            throw ServerError.forbidden("the operator API is disabled: start the server with --operator-token or PARLEY_OPERATOR_TOKEN")
        }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw ServerError.unauthorized }
        guard SHA256.hash(data: Data(header.dropFirst("Bearer ".count).utf8)) == tokenDigest else { throw ServerError.unauthorized }
    }
}
