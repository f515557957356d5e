import Foundation
import Synchronization

/// Who may use a `parley web` page: the browser that opened the one-time address `parley web` printed.
///
/// The address carries a random token. The first request that presents it gets a session cookie (HttpOnly,
/// SameSite=Strict) holding a second random secret, and the token is spent: a copy of the address seen later — in a
/// shell history, over a shoulder — opens nothing. Every other request must carry the cookie. Both secrets are 32 random
/// bytes, compared in constant time.
public final class WebSession: Sendable {
    /// The cookie's name.
    public static let cookieName = "parley_session"

    private let token: Mutex<String?>
    private let secret: String

    /// A session with fresh random secrets.
    public init() {
        token = Mutex(Self.randomSecret())
        secret = Self.randomSecret()
    }

    /// The one-time token, while it is unspent (for the address `parley web` prints).
    public var oneTimeToken: String? { token.withLock { $0 } }

    /// Spends the one-time token when `presented` is it; returns the session secret to set as the cookie then.
    public func exchange(_ presented: String) -> String? {
        token.withLock { token in
            guard let expected = token, Self.constantTimeEqual(presented, expected) else { return nil }
            token = nil
            return secret
        }
    }

    /// Whether a request's `Cookie` header carries this session's secret.
    public func admits(cookieHeader: String?) -> Bool {
        guard let cookieHeader else { return false }
        for pair in cookieHeader.split(separator: ";") {
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == Self.cookieName, Self.constantTimeEqual(String(parts[1]), secret) { return true }
        }
        return false
    }

    /// The `Set-Cookie` value that starts this session in a browser.
    public var setCookie: String { "\(Self.cookieName)=\(secret); Path=/; HttpOnly; SameSite=Strict" }

    private static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
