import Synchronization

/// Accounts with their devices, kept in memory by a store for the reads every request makes (authenticating a device,
/// checking a send's device list), so that they cost no database round trip and no hop onto the database's threads.
///
/// A store invalidates an account after every write to it or its devices has committed. A read that started before
/// such a write cannot put its older copy back: entries are stored only if no invalidation happened since the read
/// began (a generation count). Entries also expire after ``lifetime``: with several server processes on one
/// database, a change another process makes reaches this cache by notification, and the lifetime bounds how long a
/// missed notification can leave a copy stale.
public final class AccountCache: Sendable {
    /// An account and its devices, as read.
    public typealias Value = (account: StoredAccount, devices: [StoredDevice])

    private struct Entry {
        let account: StoredAccount
        let devices: [StoredDevice]
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    private let clock = ContinuousClock()
    /// Accounts kept at most; when full, half of the entries are dropped.
    public let capacity: Int
    /// How long an entry is trusted.
    public let lifetime: Duration

    /// A cache of at most `capacity` accounts, each trusted for `lifetime`.
    public init(capacity: Int = 100_000, lifetime: Duration = .seconds(60)) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The cached account `id`, unless absent or expired.
    public func value(_ id: String) -> Value? {
        let now = clock.now
        return state.withLock { state in
            guard let entry = state.entries[id], entry.expires > now else { return nil }
            return (entry.account, entry.devices)
        }
    }

    /// Reads account `id` through the cache: `load` runs on a miss, and what it returns is kept unless the account
    /// was invalidated while it ran. A missing account is not cached.
    public func value(_ id: String, load: () async throws -> Value?) async rethrows -> Value? {
        if let cached = value(id) { return cached }
        let generation = state.withLock { $0.generation }
        guard let loaded = try await load() else { return nil }
        let expires = clock.now.advanced(by: lifetime)
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity {
                state.entries = Dictionary(uniqueKeysWithValues: state.entries.prefix(capacity / 2).map { ($0.key, $0.value) })
            }
            state.entries[id] = Entry(account: loaded.account, devices: loaded.devices, expires: expires)
        }
        return loaded
    }

    /// Forgets account `id` (after a write to it or its devices committed).
    public func invalidate(_ id: String) {
        state.withLock { state in
            state.entries[id] = nil
            state.generation &+= 1
        }
    }

    /// Forgets every account (notifications from other processes may have been missed).
    public func invalidateAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation &+= 1
        }
    }
}
