import Synchronization

/// A bounded number of places for long responses (`parley rest-api`'s `/v1/receive` sockets and attachment downloads,
/// the daemon's `/api/v1/events` streams): each holds a connection and a feed, its buffer or a file, so their number is
/// capped.
public final class SubscriberSlots: Sendable {
    /// How many may be held at once.
    public let limit: Int
    private let taken = Mutex(0)

    /// Places for at most `limit` subscribers.
    public init(limit: Int) { self.limit = limit }

    /// Whether every place is taken (a hint for refusing early: ``take()`` decides).
    public var isFull: Bool { taken.withLock { $0 >= limit } }

    /// Takes a place; `false` when all are taken.
    public func take() -> Bool {
        taken.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a place taken with ``take()`` back.
    public func release() {
        taken.withLock { $0 -= 1 }
    }

    /// Takes a place held for as long as the returned lease lives, whatever becomes of the response that keeps it
    /// (written, or dropped when the client left first); `nil` when all are taken.
    public func lease() -> Lease? {
        take() ? Lease(of: self) : nil
    }

    /// A place in ``SubscriberSlots``, given back when the lease is released.
    public final class Lease: Sendable {
        private let slots: SubscriberSlots

        fileprivate init(of slots: SubscriberSlots) { self.slots = slots }

        deinit { slots.release() }
    }
}
