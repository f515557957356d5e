import Foundation
import Synchronization

/// The devices the connection's upgrade filter authenticated for a WebSocket upgrade, each under a one-time ticket the
/// filter writes into the request it hands on (``header``): the router decides the upgrade and the socket's session
/// starts from that one authentication, so a socket costs one credential check, not three. A ticket a client sends
/// itself is removed by the filter before it can be read; an unknown, used or expired one upgrades nothing.
final class VerifiedUpgrades: Sendable {
    /// The request header the filter puts the ticket in.
    static let header = "x-parley-verified-upgrade"
    /// How long a ticket may wait for its upgrade (the router reads it as soon as the filter hands the request on).
    static let lifetime: Duration = .seconds(10)
    /// Tickets kept at most; past it the oldest go. Tickets an upgrade never took (the library refused it after the
    /// filter, the connection closed) expire with their lifetime, so this bounds a flood of them, not normal use.
    static let capacity = 10_000

    private struct Entry {
        let device: AuthenticatedDevice
        let issued: ContinuousClock.Instant
    }

    /// The tickets not yet taken, and every ticket in the order it was issued (taken ones too, until they reach the
    /// front): expiry and eviction work from the front, so issuing stays cheap however full the table is.
    private struct Table {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var front = 0

        /// Drops tickets from the front of the issue order while they are taken, older than `lifetime` at `now`, or
        /// the table holds `limit` or more: the oldest go first either way.
        mutating func makeRoom(now: ContinuousClock.Instant, below limit: Int) {
            while front < order.count,
                entries.count >= limit || entries[order[front]].map({ now - $0.issued >= VerifiedUpgrades.lifetime }) ?? true
            {
                entries.removeValue(forKey: order[front])
                front += 1
            }
            compact()
        }

        /// Forgets the front of the issue order once it is most of it.
        private mutating func compact() {
            if front > 1024, front * 2 > order.count {
                order.removeFirst(front)
                front = 0
            }
        }
    }

    private let table = Mutex(Table())

    /// A new ticket for `device`.
    func issue(for device: AuthenticatedDevice) -> String {
        var generator = SystemRandomNumberGenerator()
        let ticket = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
        let now = ContinuousClock.now
        table.withLock { table in
            table.makeRoom(now: now, below: Self.capacity)
            table.entries[ticket] = Entry(device: device, issued: now)
            table.order.append(ticket)
        }
        return ticket
    }

    /// The device `ticket` was issued for, while it is valid; it stays valid (the router asks before the session takes it).
    func device(for ticket: String?) -> AuthenticatedDevice? {
        guard let ticket else { return nil }
        return table.withLock { table in
            table.entries[ticket].flatMap { ContinuousClock.now - $0.issued < Self.lifetime ? $0.device : nil }
        }
    }

    /// The device `ticket` was issued for, while it is valid; the ticket is used up.
    func take(_ ticket: String?) -> AuthenticatedDevice? {
        guard let ticket else { return nil }
        let entry = table.withLock { $0.entries.removeValue(forKey: ticket) }
        guard let entry, ContinuousClock.now - entry.issued < Self.lifetime else { return nil }
        return entry.device
    }

    /// How many tickets wait now.
    var count: Int { table.withLock { $0.entries.count } }
}
