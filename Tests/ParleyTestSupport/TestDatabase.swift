import Foundation
import Logging
import PostgresNIO

/// A throwaway database on the test PostgreSQL (`PARLEY_TEST_DATABASE_URL`, an admin URL such as
/// `postgres://postgres@127.0.0.1:54329/postgres`), shared by the server test targets.
public struct TestDatabase: Sendable {
    /// The database's name.
    public let name: String
    /// Its URL, for `PostgresStore` or `parley-server --database-url`.
    public let url: String
    private let admin: URLComponents

    /// A new name on the configured server (nothing is created yet).
    public init() throws {
        guard let text = ProcessInfo.processInfo.environment["PARLEY_TEST_DATABASE_URL"], let admin = URLComponents(string: text) else {
            throw TestDatabaseError.notConfigured
        }
        self.admin = admin
        name = "parley_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        var components = admin
        components.path = "/" + name
        url = components.string!
    }

    /// Creates the database.
    public func create() async throws { try await administer("CREATE DATABASE \(name)") }

    /// Drops it, disconnecting whoever is still connected.
    public func drop() async throws { try await administer("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }

    private func administer(_ sql: String) async throws {
        let configuration = PostgresConnection.Configuration(
            host: admin.host ?? "127.0.0.1", port: admin.port ?? 5432, username: admin.user ?? "postgres",
            password: admin.password, database: String(admin.path.dropFirst()), tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "test-admin"))
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-admin"))
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}

/// The test PostgreSQL is not configured.
public enum TestDatabaseError: Error, CustomStringConvertible {
    case notConfigured

    public var description: String { "PARLEY_SERVER_BACKEND=postgres needs PARLEY_TEST_DATABASE_URL (make test sets both)" }
}
