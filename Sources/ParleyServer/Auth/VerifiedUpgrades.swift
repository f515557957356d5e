import Foundation
import Synchronization

/// The devices the connection's upgrade filter authenticated for a WebSocket upgrade, each under a one-time ticket the
/// filter writes into the request it hands on (``header``): the router decides the upgrade and the socket's session
/// starts from that one authentication, so a socket costs one credential check, not three. A ticket a client sends
/// itself is removed by the filter before it can be read; an unknown, used or expired one upgrades nothing.
final class VerifiedUpgrades: Sendable {
    /// The request header the filter puts the ticket in.
    static let header = "x-parley-verified-upgrade"
    /// How long a ticket may wait for its upgrade (the router reads it within moments).
    static let lifetime: Duration = .seconds(30)
    /// Tickets kept at most; past it the oldest go (the connection caps bound upgrades in flight far below this).
    static let capacity = 10_000

    private struct Entry {
        let device: AuthenticatedDevice
        let issued: ContinuousClock.Instant
    }

    /// The tickets not yet taken, by ticket.
    private let entries = Mutex<[String: Entry]>([:])

    /// A new ticket for `device`.
    func issue(for device: AuthenticatedDevice) -> String {
        var generator = SystemRandomNumberGenerator()
        let ticket = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
        let now = ContinuousClock.now
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { now - $0.value.issued < Self.lifetime }
                if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.issued < $1.value.issued })?.key {
                    entries.removeValue(forKey: oldest)
                }
            }
            entries[ticket] = Entry(device: device, issued: now)
        }
        return ticket
    }

    /// The device `ticket` was issued for, while it is valid; it stays valid (the router asks before the session takes it).
    func device(for ticket: String?) -> AuthenticatedDevice? {
        guard let ticket else { return nil }
        return entries.withLock { entries in entries[ticket].flatMap { ContinuousClock.now - $0.issued < Self.lifetime ? $0.device : nil } }
    }

    /// The device `ticket` was issued for, while it is valid; the ticket is used up.
    func take(_ ticket: String?) -> AuthenticatedDevice? {
        guard let ticket else { return nil }
        let entry = entries.withLock { $0.removeValue(forKey: ticket) }
        guard let entry, ContinuousClock.now - entry.issued < Self.lifetime else { return nil }
        return entry.device
    }
}
