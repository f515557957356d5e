import Synchronization
import Testing

@testable import ParleyServer

/// `/metrics` needs no credentials, so the mailbox count behind it is bounded: scrapes share one count while it runs
/// and reuse it until it is older than its maximum age.
@Suite struct MailboxDepthReadingTests {
    @Test func concurrentScrapesShareOneCountAndARecentOneIsReused() async throws {
        let counts = Mutex(0)
        let reading = MailboxDepthReading(maximumAge: .seconds(3600)) {
            let n = counts.withLock {
                $0 += 1
                return $0
            }
            try await Task.sleep(for: .milliseconds(50))
            return n * 10
        }
        let depths = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { try await reading.depth() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts.withLock { $0 } == 1, "100 concurrent scrapes, one count")
        #expect(Set(depths) == [10])
        #expect(try await reading.depth() == 10, "a recent count is reused")
        #expect(counts.withLock { $0 } == 1)
    }

    @Test func aStaleCountIsTakenAgain() async throws {
        let counts = Mutex(0)
        let reading = MailboxDepthReading(maximumAge: .zero) {
            counts.withLock {
                $0 += 1
                return $0
            }
        }
        #expect(try await reading.depth() == 1)
        #expect(try await reading.depth() == 2)
    }

    @Test func aFailedCountIsNotKept() async throws {
        struct Down: Error {}
        let fail = Mutex(true)
        let reading = MailboxDepthReading {
            if fail.withLock({ $0 }) { throw Down() }
            return 7
        }
        await #expect(throws: Down.self) { try await reading.depth() }
        fail.withLock { $0 = false }
        #expect(try await reading.depth() == 7)
    }
}
