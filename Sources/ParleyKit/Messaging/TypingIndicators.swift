import Foundation
import Synchronization

/// Who is typing right now, in each chat, in memory only: a "started" shows for ``lifetime`` unless renewed, a
/// "stopped" ends it at once. Nothing about typing reaches the database or the server's storage.
public final class TypingIndicators: Sendable {
    /// How long a "started" lasts without a renewal or a "stopped" (Signal and seed 004: 10 seconds).
    public static let lifetime: UInt64 = 10_000
    /// Indicators kept before the ended ones are dropped on the next ``record(_:from:in:)``.
    private static let purgeThreshold = 1_024

    /// Someone typing in a chat: a group (its id), or the 1:1 chat with them (`nil`).
    private struct Typist: Hashable {
        let accountId: String
        let groupId: Data?
    }

    private let now: @Sendable () -> UInt64
    private let expiries = Mutex<[Typist: UInt64]>([:])

    /// Indicators on the clock `now` (milliseconds; injectable so tests need not wait).
    public init(now: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }) {
        self.now = now
    }

    /// Records that `accountId` started or stopped typing in the group `groupId`, or (`nil`) in the 1:1 chat.
    public func record(_ action: TypingAction, from accountId: String, in groupId: Data? = nil) {
        let typist = Typist(accountId: accountId, groupId: groupId)
        let now = now()
        expiries.withLock { expiries in
            switch action {
            case .started: expiries[typist] = now + Self.lifetime
            case .stopped: expiries[typist] = nil
            }
            // Ended indicators go once many have gathered, whether or not anyone asks who is typing.
            if expiries.count > Self.purgeThreshold { expiries = expiries.filter { $0.value > now } }
        }
    }

    /// Whether `accountId` is typing now in the group `groupId`, or (`nil`) in the 1:1 chat.
    public func isTyping(_ accountId: String, in groupId: Data? = nil) -> Bool {
        let now = now()
        return expiries.withLock { ($0[Typist(accountId: accountId, groupId: groupId)] ?? 0) > now }
    }

    /// Indicators held, ended ones not yet dropped included (for tests of the bound).
    var heldCount: Int { expiries.withLock { $0.count } }

    /// Every account typing now in the group `groupId`, or (`nil`) in a 1:1 chat, sorted.
    public func typing(in groupId: Data? = nil) -> [String] {
        let now = now()
        return expiries.withLock { expiries in
            expiries = expiries.filter { $0.value > now }
            return expiries.keys.filter { $0.groupId == groupId }.map(\.accountId).sorted()
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
