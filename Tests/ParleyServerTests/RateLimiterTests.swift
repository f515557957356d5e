import Foundation
import Testing

@testable import ParleyServer

/// The limiter's memory: a bucket full again is forgotten by the maintenance sweep (remembering it changes nothing),
/// one still refilling is kept with what it holds, and past its bound the table halves.
@Suite struct RateLimiterTests {
    /// Refills in a microsecond: full again by the time the sweep looks.
    static let quick = TokenBucketPolicy(capacity: 1, refillPerSecond: 1_000_000)
    /// Refills in about three hours: still refilling when the sweep looks.
    static let slow = TokenBucketPolicy(capacity: 1, refillPerSecond: 0.0001)

    @Test func theSweepForgetsFullBucketsAndKeepsThoseStillRefilling() async throws {
        let limiter = RateLimiter()
        try limiter.take("send", accountId: "quick", policy: Self.quick)
        try limiter.take("send", accountId: "slow", policy: Self.slow)
        try limiter.take("send", address: "198.51.100.7", policy: Self.quick)
        #expect(limiter.trackedCount == 3)
        try await Task.sleep(for: .milliseconds(5))

        #expect(limiter.forgetFullBuckets() == 2)
        #expect(limiter.trackedCount == 1)
        // The bucket kept still holds nothing: forgetting it would have handed the caller a fresh burst.
        #expect(throws: ServerError.self) { try limiter.take("send", accountId: "slow", policy: Self.slow) }
        // Those forgotten start full, as they would have been.
        try limiter.take("send", accountId: "quick", policy: Self.quick)
    }

    @Test func pastItsBoundTheTableKeepsAtMostHalfOnTheNextTake() throws {
        let limiter = RateLimiter(maximumTracked: 10)
        for index in 0..<10 { try limiter.take("send", accountId: "caller-\(index)", policy: Self.slow) }
        #expect(limiter.trackedCount == 10)
        try limiter.take("send", accountId: "one-more", policy: Self.slow)
        #expect(limiter.trackedCount == 5)
    }
}
