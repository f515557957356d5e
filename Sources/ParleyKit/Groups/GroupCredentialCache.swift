import Foundation
import ParleyProtocol
import Synchronization

/// The account's group auth credentials this process holds, by redemption day: fetched a week at a time (and kept in
/// the database, ``ServerGroups``), so a burst of group calls — or many short `parley` runs — costs one credential
/// request (the server answers about one a minute).
final class GroupCredentialCache: Sendable {
    private let credentials = Mutex<[UInt64: AuthCredentialWithPni]>([:])

    /// The credential for `day` (seconds since 1970, a whole day), fetched with `fetch` when this process has none.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when the server issued none for that day.
    func credential(for day: UInt64, fetch: () async throws -> [UInt64: AuthCredentialWithPni]) async throws -> AuthCredentialWithPni {
        if let kept = credentials.withLock({ $0[day] }) { return kept }
        let fetched = try await fetch()
        return try credentials.withLock { held in
            held = held.filter { $0.key >= day }.merging(fetched) { $1 }
            guard let credential = held[day] else {
                throw ParleyError.server(.malformedResponse("the server issued no group credential for today"))
            }
            return credential
        }
    }
}
