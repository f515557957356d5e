import Foundation
import Synchronization

/// Group send endorsements already issued, by group, revision and expiration: the response is the same for every member
/// of one revision until it expires, and issuing it costs ~150 µs per member (148 ms for 1,000), so a read of a large
/// group repeated by its members — or by someone repeating one member's request — costs it once per revision and day.
/// Bounded: the oldest entries go first beyond ``capacity``.
final class EndorsementCache: Sendable {
    struct Key: Hashable {
        let groupId: [UInt8]
        let version: UInt32
        let expiration: UInt64
    }

    /// The most responses kept (a 1,000-member group's is ~32 KB).
    let capacity: Int
    private let state = Mutex<(entries: [Key: Data], order: [Key])>(([:], []))

    /// A cache of at most `capacity` responses.
    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The response kept for `key`, or the one `issue` makes (then kept).
    func response(for key: Key, issue: () -> Data) -> Data {
        if let kept = state.withLock({ $0.entries[key] }) { return kept }
        let issued = issue()
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            state.entries[key] = issued
            state.order.append(key)
            while state.order.count > capacity { state.entries[state.order.removeFirst()] = nil }
        }
        return issued
    }
}
