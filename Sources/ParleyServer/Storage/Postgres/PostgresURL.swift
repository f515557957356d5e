import Foundation
import PostgresNIO

/// A parsed `postgres://` (or `postgresql://`) connection URL: `postgres://user[:password]@host[:port][/database]`,
/// each part percent-decoded, the port 5432 unless given. The only query option taken is `sslmode=disable`, because
/// the store connects without TLS.
struct PostgresURL: Sendable, Equatable {
    /// Host name or address (IPv6 in brackets in the URL, without them here).
    let host: String
    /// TCP port.
    let port: Int
    /// The role to connect as.
    let username: String
    /// The role's password; `nil` when the URL has none (`""` when it has an empty one).
    let password: String?
    /// The database; `nil` lets the server pick the one named after the user.
    let database: String?

    /// Parses `string`; throws ``PostgresStoreError/invalidURL(_:)`` saying what is wrong.
    init(_ string: String) throws {
        guard let schemeEnd = string.range(of: "://") else { throw PostgresStoreError.invalidURL("no scheme") }
        let scheme = string[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresStoreError.invalidURL("the scheme must be postgres or postgresql")
        }
        var rest = string[schemeEnd.upperBound...]
        guard !rest.contains("#") else { throw PostgresStoreError.invalidURL("a fragment is not allowed") }
        if let question = rest.firstIndex(of: "?") {
            try Self.checkOptions(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        guard let at = authority.lastIndex(of: "@") else { throw PostgresStoreError.invalidURL("no user name") }
        let userInfo = authority[..<at]
        let colon = userInfo.firstIndex(of: ":") ?? userInfo.endIndex
        username = try Self.decode(userInfo[..<colon], "user name")
        guard !username.isEmpty else { throw PostgresStoreError.invalidURL("empty user name") }
        password = try colon == userInfo.endIndex ? nil : Self.decode(userInfo[userInfo.index(after: colon)...], "password")
        let endpoint = try Self.hostAndPort(authority[authority.index(after: at)...])
        host = endpoint.host
        port = endpoint.port
        let path = slash == rest.endIndex ? "" : rest[rest.index(after: slash)...]
        let database = try Self.decode(path, "database name")
        guard !database.contains("/") else { throw PostgresStoreError.invalidURL("the database name holds a slash") }
        self.database = database.isEmpty ? nil : database
    }

    /// The client configuration for this URL, without TLS.
    var configuration: PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: .disable)
    }

    private static func hostAndPort(_ text: Substring) throws -> (host: String, port: Int) {
        let host: String
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw PostgresStoreError.invalidURL("unclosed [ in the host") }
            host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw PostgresStoreError.invalidURL("text after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else {
            let colon = text.firstIndex(of: ":") ?? text.endIndex
            host = try decode(text[..<colon], "host")
            if colon != text.endIndex { portText = text[text.index(after: colon)...] }
        }
        guard !host.isEmpty else { throw PostgresStoreError.invalidURL("no host") }
        guard !host.hasPrefix("/") else { throw PostgresStoreError.invalidURL("Unix socket paths are not supported") }
        guard let portText else { return (host, 5432) }
        guard let port = UInt16(portText), port > 0 else { throw PostgresStoreError.invalidURL("the port must be 1 to 65535") }
        return (host, Int(port))
    }

    private static func checkOptions(_ query: Substring) throws {
        for option in query.split(separator: "&") where option != "sslmode=disable" {
            throw PostgresStoreError.invalidURL("unsupported option \(option.split(separator: "=").first ?? option) (only sslmode=disable)")
        }
    }

    private static func decode(_ text: Substring, _ part: String) throws -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw PostgresStoreError.invalidURL("bad percent-encoding in the \(part)")
        }
        return decoded
    }
}
