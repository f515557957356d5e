import Crypto
import Foundation
import Hummingbird

/// Checks the operator credential (`Authorization: Bearer TOKEN`) for the hash banks' operator API.
struct OperatorAuthenticator: Sendable {
    private let tokenDigest: [UInt8]?

    /// An authenticator for `token`; with `nil` every operator request is refused.
    init(token: String?) {
        tokenDigest = token.map { Array(SHA256.hash(data: Data($0.utf8))) }
    }

    /// Passes when the request carries the operator token (compared in constant time, as digests).
    func authenticate(_ request: Request) throws {
        guard let tokenDigest else {
            throw ServerError.forbidden("the operator API is disabled: start the server with --operator-token or PARLEY_OPERATOR_TOKEN")
        }
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw ServerError.unauthorized }
        let given = Array(SHA256.hash(data: Data(header.dropFirst("Bearer ".count).utf8)))
        var difference: UInt8 = 0
        for index in 0..<given.count { difference |= given[index] ^ tokenDigest[index] }
        guard difference == 0 else { throw ServerError.unauthorized }
    }
}
