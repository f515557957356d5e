import Synchronization

/// A bounded number of places for long-lived subscribers (`parley rest-api`'s `/v1/receive` sockets): each holds a
/// feed, its buffer and a connection, so their number is capped.
final class SubscriberSlots: Sendable {
    /// How many subscribers may be connected at once.
    let limit: Int
    private let taken = Mutex(0)

    /// Places for at most `limit` subscribers.
    init(limit: Int) { self.limit = limit }

    /// Takes a place; `false` when all are taken.
    func take() -> Bool {
        taken.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a place taken with ``take()`` back.
    func release() {
        taken.withLock { $0 -= 1 }
    }
}
