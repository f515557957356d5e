import Foundation
import Synchronization

/// Who is typing right now, in memory only: a "started" shows for ``lifetime`` unless renewed, a "stopped" ends
/// it at once. Nothing about typing reaches the database or the server's storage.
public final class TypingIndicators: Sendable {
    /// How long a "started" lasts without a renewal or a "stopped" (Signal and seed 004: 10 seconds).
    public static let lifetime: UInt64 = 10_000

    private let now: @Sendable () -> UInt64
    private let expiries = Mutex<[String: UInt64]>([:])

    /// Indicators on the clock `now` (milliseconds; injectable so tests need not wait).
    public init(now: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }) {
        self.now = now
    }

    /// Records that `accountId` started or stopped typing.
    public func record(_ action: TypingAction, from accountId: String) {
        let expiry = now() + Self.lifetime
        expiries.withLock { expiries in
            switch action {
            case .started: expiries[accountId] = expiry
            case .stopped: expiries[accountId] = nil
            }
        }
    }

    /// Whether `accountId` is typing now.
    public func isTyping(_ accountId: String) -> Bool {
        let now = now()
        return expiries.withLock { ($0[accountId] ?? 0) > now }
    }

    /// Every account typing now, sorted.
    public func typing() -> [String] {
        let now = now()
        return expiries.withLock { expiries in
            expiries = expiries.filter { $0.value > now }
            return expiries.keys.sorted()
        }
    }
}

/// The `kind` labels of the ephemeral events Parley clients exchange.
enum EphemeralKind {
    /// A typing indicator: `content` is JSON `[OutgoingMessage]`, one Signal ciphertext per recipient device.
    static let typing = "typing"
    /// The largest event content the server relays (ServerLimits.ephemeralContentBytes).
    static let maximumContentBytes = 4 * 1024
}
