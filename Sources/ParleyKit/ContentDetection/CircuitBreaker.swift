/// Stops calling a failing service for a while: closed (calls pass) → open after `threshold` consecutive failures
/// (calls fail fast for `cooldown`) → half-open (one probe passes; its success closes, its failure reopens).
/// Not thread-safe on its own; its owner locks.
struct CircuitBreaker {
    /// Where the breaker stands.
    enum State: Equatable {
        case closed
        case open(until: ContinuousClock.Instant)
        case halfOpen
    }

    let threshold: Int
    let cooldown: Duration
    private(set) var state = State.closed
    private(set) var consecutiveFailures = 0
    /// Times it opened.
    private(set) var openings = 0

    /// A closed breaker.
    init(threshold: Int, cooldown: Duration) {
        self.threshold = max(1, threshold)
        self.cooldown = cooldown
    }

    /// Whether a call may go out at `now`; after the cooldown, the first caller gets the probe.
    mutating func allows(now: ContinuousClock.Instant) -> Bool {
        switch state {
        case .closed: return true
        case .halfOpen: return false  // the probe is out
        case .open(let until):
            guard now >= until else { return false }
            state = .halfOpen
            return true
        }
    }

    /// Records a successful call.
    mutating func recordSuccess() {
        state = .closed
        consecutiveFailures = 0
    }

    /// Records a failed call (after its retries).
    mutating func recordFailure(now: ContinuousClock.Instant) {
        consecutiveFailures += 1
        if state == .halfOpen || consecutiveFailures >= threshold {
            if case .open = state {} else { openings += 1 }
            state = .open(until: now + cooldown)
        }
    }
}
