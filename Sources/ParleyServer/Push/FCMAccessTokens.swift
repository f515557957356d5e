import AsyncHTTPClient
import Foundation
import NIOCore

/// OAuth 2.0 access tokens for FCM (Google's server-to-server flow): a JWT signed with the service account's key is
/// exchanged at `token_uri`, and the token is reused until a minute before it expires. Concurrent pushes share one
/// exchange.
actor FCMAccessTokens {
    let account: FCMServiceAccount
    private var current: (token: String, expires: Date)?
    private var exchange: Task<(token: String, expires: Date), any Error>?

    /// The scope FCM's HTTP v1 API requires.
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    /// Errors of an exchange.
    enum Failure: Error, CustomStringConvertible {
        /// The token endpoint refused the assertion or answered something else than a token.
        case refused(status: Int, body: String)

        var description: String {
            switch self {
            case .refused(let status, let body): return "the OAuth token endpoint answered \(status): \(body)"
            }
        }
    }

    init(account: FCMServiceAccount) {
        self.account = account
    }

    /// A valid access token, exchanged anew when there is none, it expires within a minute, or it is `stale` (FCM
    /// refused it; a token exchanged since is kept).
    func token(client: HTTPClient, timeout: Duration, replacing stale: String? = nil) async throws -> String {
        if let stale, current?.token == stale { current = nil }
        if let current, current.expires.timeIntervalSinceNow > 60 { return current.token }
        if let exchange { return try await exchange.value.token }
        let task = Task { [account] in try await Self.exchange(account: account, client: client, timeout: timeout) }
        exchange = task
        defer { exchange = nil }
        let fresh = try await task.value
        current = fresh
        return fresh.token
    }

    private static func exchange(account: FCMServiceAccount, client: HTTPClient, timeout: Duration) async throws -> (
        token: String, expires: Date
    ) {
        let now = Int64(Date().timeIntervalSince1970)
        var header: [String: String] = [:]
        if let keyId = account.privateKeyId { header["kid"] = keyId }
        let assertion = try JSONWebToken.rs256(
            header: header,
            claims: [
                "iss": .string(account.clientEmail), "scope": .string(scope), "aud": .string(account.tokenURI),
                "iat": .integer(now), "exp": .integer(now + 3600),
            ], key: account.key)
        var request = HTTPClientRequest(url: account.tokenURI)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
        let response = try await PushHTTPResponse.execute(request, on: client, timeout: timeout)
        struct Token: Decodable {
            let access_token: String
            let expires_in: Int?
        }
        guard response.status == 200, let token = try? JSONDecoder().decode(Token.self, from: Data(response.body)) else {
            throw Failure.refused(status: response.status, body: response.summary)
        }
        return (token.access_token, Date().addingTimeInterval(TimeInterval(token.expires_in ?? 3600)))
    }
}
