import Foundation
import Synchronization
import Testing

@testable import ParleyServer

/// The in-memory accounts the stores read through: hits cost no load, a write's invalidation is never undone by a
/// read that started before it, entries expire, and the cache stays within its capacity.
@Suite struct AccountCacheTests {
    static func value(_ id: String, devices: Int = 1) -> AccountCache.Value {
        (
            StoredAccount(id: id, username: id, identityKey: [5] + [UInt8](repeating: 1, count: 32)),
            (1...UInt32(devices)).map {
                StoredDevice(accountId: id, deviceId: $0, registrationId: 7, name: nil, passwordHash: "h", created: 0)
            }
        )
    }

    @Test func hitsAreServedWithoutLoadingAndMissesAreNotKept() async throws {
        let cache = AccountCache()
        let loads = Mutex(0)
        func read(_ id: String, _ found: AccountCache.Value?) async -> AccountCache.Value? {
            await cache.value(id) {
                loads.withLock { $0 += 1 }
                return found
            }
        }
        #expect(await read("a", Self.value("a"))?.account.id == "a")
        #expect(await read("a", nil)?.account.id == "a", "the second read is a hit")
        #expect(await read("missing", nil) == nil)
        #expect(await read("missing", nil) == nil)
        #expect(loads.withLock { $0 } == 3, "one load for a, two for the missing account (misses are not cached)")
    }

    @Test func anInvalidationDuringALoadKeepsTheLoadedCopyOut() async throws {
        let cache = AccountCache()
        // The load reads the old state; the write commits and invalidates before the load returns.
        let stale = await cache.value("a") {
            cache.invalidate("a")
            return Self.value("a", devices: 2)
        }
        #expect(stale?.devices.count == 2, "the caller still gets what it read")
        #expect(cache.value("a") == nil, "but the cache does not keep it")
        _ = await cache.value("a") { Self.value("a", devices: 1) }
        #expect(cache.value("a")?.devices.count == 1)
        cache.invalidate("a")
        #expect(cache.value("a") == nil)
        _ = await cache.value("b") { Self.value("b") }
        cache.invalidateAll()
        #expect(cache.value("b") == nil)
    }

    @Test func entriesExpireAndTheCacheStaysWithinItsCapacity() async throws {
        let expiring = AccountCache(lifetime: .milliseconds(50))
        _ = await expiring.value("a") { Self.value("a") }
        #expect(expiring.value("a") != nil)
        try await Task.sleep(for: .milliseconds(80))
        #expect(expiring.value("a") == nil)

        let small = AccountCache(capacity: 10)
        for index in 0..<25 { _ = await small.value("id\(index)") { Self.value("id\(index)") } }
        let kept = (0..<25).filter { small.value("id\($0)") != nil }
        #expect(kept.count <= 10 && kept.contains(24))
    }
}
