/// The mailbox depth `/metrics` reports, read from the store at most once per `maximumAge`. Counting the mailbox
/// scans it, and `/metrics` needs no credentials: without this, every scrape — or anyone looping on the route —
/// bought a full count. Scrapes that arrive while a count runs wait for that count instead of starting their own.
actor MailboxDepthReading {
    private let count: @Sendable () async throws -> Int
    private let maximumAge: Duration
    private let clock = ContinuousClock()
    private var last: (depth: Int, at: ContinuousClock.Instant)?
    private var running: Task<Int, any Error>?

    /// A reading that calls `count` (the store's `mailboxDepth`) when its last answer is older than `maximumAge`.
    init(maximumAge: Duration = .seconds(5), count: @escaping @Sendable () async throws -> Int) {
        self.maximumAge = maximumAge
        self.count = count
    }

    /// The depth: the last count if it is recent enough, else the count running now, else a new one.
    func depth() async throws -> Int {
        if let last, clock.now - last.at < maximumAge { return last.depth }
        if let running { return try await running.value }
        let task = Task { try await count() }
        running = task
        defer { running = nil }
        let depth = try await task.value
        last = (depth, clock.now)
        return depth
    }
}
