import Testing
@testable import ParleyCLI

/// The streaming doors' watch over clients that stop reading: a write that waits past the limit ends the stream; writes
/// that are taken, and quiet stretches with no write at all, do not.
@Suite struct StallWatchTests {
    @Test func aWriteWaitingPastTheLimitEndsTheStream() async throws {
        let watch = StallWatch(limit: .milliseconds(200))
        let started = ContinuousClock.now
        await #expect(throws: StalledClientError.self) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await watch.watch() }
                // A client whose buffers are full: the write waits until it is cancelled.
                group.addTask { try await watch.write { try await Task.sleep(for: .seconds(3600)) } }
                try await group.next()
                group.cancelAll()
            }
        }
        // Noticed (within a quarter of the limit after it passed, on an idle machine), and the waiting write was cancelled
        // with it: the hour-long write did not hold the test.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func writesTakenInTimeAndQuietStretchesAreNoStall() async throws {
        // A limit far above what a busy machine adds to a 10 ms write.
        let watch = StallWatch(limit: .seconds(1))
        let outcome = await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                do { try await watch.watch() } catch is StalledClientError { return false }
                return true
            }
            group.addTask {
                // Many quick writes, then nothing for several limits (an idle stream between events).
                for _ in 0..<10 { try await watch.write { try await Task.sleep(for: .milliseconds(10)) } }
                try await Task.sleep(for: .seconds(3))
                return true
            }
            let first = try? await group.next()
            group.cancelAll()
            return first ?? nil
        }
        #expect(outcome == true, "the watch gave up on a client that took every write")
    }
}
