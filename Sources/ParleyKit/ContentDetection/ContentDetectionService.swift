import Crypto
import Foundation
import NIOCore
import ParleyAPI
import Synchronization

/// The client's side of duplicate content detection (seed 003's `ContentDetectionService`): checks SHA-256 hashes of
/// attachment plaintexts against the server's hash banks and stores them after successful sends.
///
/// It never stands in the way of messaging: a disabled service, a failed request (after retries with exponential
/// backoff and jitter on 5xx answers and network errors; 4xx answers are not retried) or an open circuit breaker all
/// answer "not found" (fail open). Results are kept in an LRU cache with a lifetime; in prefix mode one cached answer
/// serves every hash with the same five leading digits.
public final class ContentDetectionService: Sendable {
    let api: ParleyServerClient
    let credentials: @Sendable () throws -> DeviceCredentials
    /// The configuration in force.
    public let configuration: ContentDetectionConfiguration
    private let clock = ContinuousClock()
    /// What the service remembers between calls, behind one lock.
    private struct State {
        var breaker: CircuitBreaker
        var verdicts: LRUCache<String, HashVerdict>
        var prefixes: LRUCache<String, Set<String>>
        var counters = ContentDetectionMetrics()
        var background: [UUID: Task<Void, Never>] = [:]
    }
    private let state: Mutex<State>

    /// A service talking to `api` as the device `credentials` returns.
    public init(
        api: ParleyServerClient, configuration: ContentDetectionConfiguration = ContentDetectionConfiguration(),
        credentials: @escaping @Sendable () throws -> DeviceCredentials
    ) {
        let timeout = configuration.requestTimeout.components
        self.api = api.with(timeout: .nanoseconds(timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000))
        self.configuration = configuration
        self.credentials = credentials
        state = Mutex(
            State(
                breaker: CircuitBreaker(threshold: configuration.failureThreshold, cooldown: configuration.cooldown),
                verdicts: LRUCache(capacity: configuration.cacheCapacity), prefixes: LRUCache(capacity: configuration.cacheCapacity)))
    }

    /// A snapshot of the counters.
    public var metrics: ContentDetectionMetrics {
        state.withLock { s in
            var snapshot = s.counters
            snapshot.breakerOpenings = s.breaker.openings
            return snapshot
        }
    }

    /// Whether the breaker currently refuses requests (open, cooling down).
    public var isCircuitOpen: Bool {
        state.withLock { s in if case .open = s.breaker.state { return true } else { return false } }
    }

    /// SHA-256 of a file, read in 1 MiB pieces (bounded memory), as 64 lowercase hex characters.
    public static func hash(ofFileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var digest = SHA256()
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty { digest.update(data: data) }
        return ContentHashFormat.hex(Array(digest.finalize()))
    }

    /// What the banks hold of `hash` (64 lowercase hex); "not found" on any failure.
    public func contains(_ hash: String) async -> HashVerdict {
        await batchContains([hash])[0]
    }

    /// One verdict per hash, in order. Full-hash mode asks in batches of 1,000; prefix mode asks once per prefix.
    public func batchContains(_ hashes: [String]) async -> [HashVerdict] {
        state.withLock { s in s.counters.lookups += hashes.count }
        guard configuration.enabled else { return failOpen(hashes.count) }
        guard hashes.allSatisfy({ ContentHashFormat.parse($0) != nil }) else { return failOpen(hashes.count) }
        switch configuration.mode {
        case .fullHash: return await fullHashLookup(hashes)
        case .prefix: return await prefixLookup(hashes)
        }
    }

    /// Records `hash` in the `seen` bank; returns whether the server took it (failures are only counted).
    @discardableResult
    public func store(_ hash: String) async -> Bool {
        guard configuration.enabled, ContentHashFormat.parse(hash) != nil else { return false }
        let stored = await request { [api] device in try await api.storeHash(hash, as: device) } != nil
        if stored { state.withLock { s in s.counters.stored += 1 } }
        return stored
    }

    /// Stores `hashes` in the background (after a successful send); ``waitForBackgroundWork()`` awaits them.
    public func storeInBackground(_ hashes: [String]) {
        guard configuration.enabled, configuration.storeAfterSend, !hashes.isEmpty else { return }
        let id = UUID()
        state.withLock { s in
            s.background[id] = Task {
                for hash in hashes { await self.store(hash) }
                _ = self.state.withLock { $0.background.removeValue(forKey: id) }
            }
        }
    }

    /// Waits for background stores (a command-line process waits before it exits).
    public func waitForBackgroundWork() async {
        let tasks = state.withLock { s in Array(s.background.values) }
        for task in tasks { await task.value }
    }

    /// Removes `hash` from `bank` with the operator credential of the configuration.
    ///
    /// - Throws: ``ParleyError/invalidArgument(_:)`` without an operator credential; the server's error otherwise
    ///   (operator actions do not fail open).
    public func delete(_ hash: String, bank: String = "blocked") async throws {
        guard let token = configuration.operatorToken else {
            throw ParleyError.invalidArgument("deleting a hash needs the operator credential (PARLEY_OPERATOR_TOKEN)")
        }
        try await api.deleteHash(hash, bank: bank, operatorToken: token)
        state.withLock { s in
            s.verdicts = LRUCache(capacity: configuration.cacheCapacity)
            s.prefixes = LRUCache(capacity: configuration.cacheCapacity)
        }
    }

    private func fullHashLookup(_ hashes: [String]) async -> [HashVerdict] {
        var results = [HashVerdict?](repeating: nil, count: hashes.count)
        var missing: [Int] = []
        state.withLock { s in
            let now = clock.now
            for (position, hash) in hashes.enumerated() {
                if let cached = s.verdicts.value(for: hash, now: now) {
                    results[position] = cached.cached
                    s.counters.cacheHits += 1
                } else {
                    missing.append(position)
                }
            }
        }
        var start = 0
        while start < missing.count {
            let slice = Array(missing[start..<min(start + 1000, missing.count)])
            start += slice.count
            let asked = slice.map { hashes[$0] }
            let answer = await request { [api] device in
                asked.count == 1 ? [try await api.checkHash(asked[0], as: device)] : try await api.checkHashes(asked, as: device).results
            }
            guard let answer, answer.count == asked.count else {
                for position in slice { results[position] = .failOpen }
                state.withLock { s in s.counters.failOpen += slice.count }
                continue
            }
            state.withLock { s in
                let expires = clock.now + configuration.cacheLifetime
                for (position, result) in zip(slice, answer) {
                    let verdict = HashVerdict(found: result.found, blocked: result.action == "block", banks: result.banks, source: .server)
                    s.verdicts.set(verdict, for: hashes[position], expires: expires)
                    results[position] = verdict
                    if verdict.blocked { s.counters.blocked += 1 }
                }
            }
        }
        return results.map { $0 ?? .failOpen }
    }

    private func prefixLookup(_ hashes: [String]) async -> [HashVerdict] {
        var answers: [String: Set<String>] = [:]
        var fromCache: Set<String> = []
        for hash in hashes {
            let prefix = String(hash.prefix(ContentHashFormat.prefixLength))
            guard answers[prefix] == nil else { continue }
            if let cached = state.withLock({ s in s.prefixes.value(for: prefix, now: clock.now) }) {
                answers[prefix] = cached
                fromCache.insert(prefix)
                continue
            }
            guard let answer = await request({ [api] device in try await api.hashPrefix(prefix, as: device) }) else { continue }
            let suffixes = Set(answer.suffixes)
            answers[prefix] = suffixes
            state.withLock { s in s.prefixes.set(suffixes, for: prefix, expires: clock.now + configuration.cacheLifetime) }
        }
        var asked: Set<String> = []
        return hashes.map { hash in
            let prefix = String(hash.prefix(ContentHashFormat.prefixLength))
            let firstAsk = asked.insert(prefix).inserted
            guard let suffixes = answers[prefix] else {
                state.withLock { s in s.counters.failOpen += 1 }
                return .failOpen
            }
            let blocked = suffixes.contains(String(hash.dropFirst(ContentHashFormat.prefixLength)))
            let cached = !firstAsk || fromCache.contains(prefix)
            state.withLock { s in
                if blocked { s.counters.blocked += 1 }
                if cached { s.counters.cacheHits += 1 }
            }
            return HashVerdict(found: blocked, blocked: blocked, banks: blocked ? ["blocked"] : [], source: cached ? .cache : .server)
        }
    }

    /// Runs one logical request through the breaker with retries; `nil` when it failed or was not allowed.
    private func request<T: Sendable>(_ call: @Sendable (DeviceCredentials) async throws -> T) async -> T? {
        guard let device = try? credentials(), state.withLock({ s in s.breaker.allows(now: clock.now) }) else { return nil }
        var attempt = 0
        while true {
            state.withLock { s in s.counters.requests += 1 }
            do {
                let result = try await call(device)
                state.withLock { s in s.breaker.recordSuccess() }
                return result
            } catch ParleyError.server(let error) where Self.isRetryable(error) && attempt + 1 < configuration.maxAttempts {
                attempt += 1
                state.withLock { s in s.counters.retries += 1 }
                try? await Task.sleep(for: delay(attempt: attempt))
            } catch ParleyError.server(let error) where !Self.isRetryable(error) {
                // A 4xx: the server is up and refused this request; the breaker stays closed.
                state.withLock { s in
                    s.counters.failures += 1
                    s.breaker.recordSuccess()
                }
                return nil
            } catch {
                state.withLock { s in
                    s.counters.failures += 1
                    s.breaker.recordFailure(now: clock.now)
                }
                return nil
            }
        }
    }

    private static func isRetryable(_ error: ParleyError.Server) -> Bool {
        guard let status = error.status else { return true }  // the network, not the server, failed
        return status >= 500
    }

    private func delay(attempt: Int) -> Duration {
        let exponential = configuration.baseDelay * (1 << min(attempt - 1, 20))
        let capped = min(exponential, configuration.maxDelay)
        return capped * Double.random(in: 0.5...1.0)
    }

    private func failOpen(_ count: Int) -> [HashVerdict] {
        state.withLock { s in s.counters.failOpen += count }
        return Array(repeating: .failOpen, count: count)
    }
}
