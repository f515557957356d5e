import Testing

@testable import ParleyLocalService

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

    /// Judged at chosen instants, not by a busy machine's timing: a write under way past the limit is a stall; one
    /// taken, however long ago, and a quiet stretch with no write at all, are not.
    @Test func onlyAWriteStillWaitingPastTheLimitIsAStall() async throws {
        let watch = StallWatch(limit: .seconds(30))
        let start = ContinuousClock.now
        #expect(!watch.isStalled(at: start + .seconds(3600)), "no write: a quiet stream is no stall")
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let write = Task {
            try await watch.write {
                enteredContinuation.yield()
                for await _ in release { break }
            }
        }
        for await _ in entered { break }
        // The write began after `start` and before now (however late this task runs): bounds on both sides.
        let observed = ContinuousClock.now
        #expect(!watch.isStalled(at: start + .seconds(29)))
        #expect(watch.isStalled(at: observed + .seconds(31)))
        releaseContinuation.yield()
        try await write.value
        #expect(!watch.isStalled(at: .now + .seconds(3600)), "a write taken is no stall")
        // Counted from the start when told a write (a response head) is already under way.
        let head = StallWatch(limit: .seconds(30), waiting: true)
        #expect(head.isStalled(at: .now + .seconds(31)))
        head.stopWaiting()
        #expect(!head.isStalled(at: .now + .seconds(31)))
    }
}
