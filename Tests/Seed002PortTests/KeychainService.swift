import Foundation
import Synchronization

/// Stand-in for the app's keychain wrapper that seed 002's store is written against (`getData`, `get`, `save`,
/// `delete`, `.shared`): a locked dictionary. `shared` is the keychain of the task's current test user, so two users
/// can live in one test process (the seed keeps one device per process, and its store's keys carry no user id).
final class KeychainService: Sendable {
    private let items = Mutex<[String: Data]>([:])

    /// The keychain in use: set per user with `KeychainService.$current.withValue(...)`.
    @TaskLocal static var current = KeychainService()

    /// The seed's entry point.
    static var shared: KeychainService { current }

    func getData(_ key: String) -> Data? { items.withLock { $0[key] } }

    func get(_ key: String) -> String? { getData(key).map { String(decoding: $0, as: UTF8.self) } }

    func save(_ data: Data, for key: String) { items.withLock { $0[key] = data } }

    func save(_ text: String, for key: String) { save(Data(text.utf8), for: key) }

    func delete(_ key: String) { _ = items.withLock { $0.removeValue(forKey: key) } }

    /// How many items are stored under keys starting with `prefix` (for the tests' checks).
    func count(prefix: String) -> Int { items.withLock { $0.keys.filter { $0.hasPrefix(prefix) }.count } }
}
