import Crypto
import Foundation
import Histogram
import ParleyAPI
import ParleyKit

/// Content-hash lookups as fast as the server answers: `workers` loops, each with its own account, for `duration`
/// seconds. Every `knownEvery`-th hash is one an import of SHA-256(index as 8 little-endian bytes), index below
/// `bankSize`, put in the bank, so hits and misses both happen.
struct HashLookupRun {
    enum Kind: String, CaseIterable {
        case contains, prefix, batch
    }

    let api: ParleyServerClient
    let kind: Kind
    let workers: Int
    let duration: Int
    let bankSize: Int
    let knownEvery: Int
    let batchSize: Int

    func execute() async throws -> String {
        let accounts = try await LoadAccount.register(api, count: workers, prefix: "dcd-\(UUID().uuidString.prefix(6))")
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(duration)
        let started = clock.now
        let results = try await withThrowingTaskGroup(of: (Int, Int, Int, Histogram<UInt64>).self) { group in
            for account in accounts {
                group.addTask { [self] in
                    var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
                    var lookups = 0
                    var hits = 0
                    var errors = 0
                    var sequence = 0
                    while clock.now < deadline {
                        let hashes = (0..<(kind == .batch ? batchSize : 1)).map { _ -> String in
                            sequence += 1
                            return sequence % knownEvery == 0 ? Self.known(Int.random(in: 0..<bankSize)) : Self.random()
                        }
                        let before = clock.now
                        do {
                            switch kind {
                            case .contains:
                                if try await api.checkHash(hashes[0], as: account.credentials).found { hits += 1 }
                            case .batch:
                                hits += try await api.checkHashes(hashes, as: account.credentials).results.filter(\.found).count
                            case .prefix:
                                let answer = try await api.hashPrefix(String(hashes[0].prefix(5)), as: account.credentials)
                                if answer.suffixes.contains(String(hashes[0].dropFirst(5))) { hits += 1 }
                            }
                            lookups += hashes.count
                            let elapsed = clock.now - before
                            latency.record(microseconds(elapsed))
                        } catch {
                            errors += 1
                        }
                    }
                    return (lookups, hits, errors, latency)
                }
            }
            var all: [(Int, Int, Int, Histogram<UInt64>)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let elapsedSeconds = seconds(clock.now - started)
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for result in results { latency.add(result.3) }
        let lookups = results.map(\.0).reduce(0, +)
        let hits = results.map(\.1).reduce(0, +)
        let errors = results.map(\.2).reduce(0, +)
        func ms(_ percentile: Double) -> String { String(format: "%.2f", Double(latency.valueAtPercentile(percentile)) / 1000) }
        return """
            \(kind.rawValue): \(workers) workers for \(String(format: "%.1f", elapsedSeconds)) s against a \(bankSize)-hash bank
            lookups: \(lookups) (\(String(format: "%.0f", Double(lookups) / elapsedSeconds))/s), hits: \(hits), errors: \(errors)
            request latency ms: p50 \(ms(50)), p99 \(ms(99)), max \(String(format: "%.2f", Double(latency.max) / 1000))
            """
    }

    /// The `index`-th hash of the benchmark bank.
    static func known(_ index: Int) -> String {
        withUnsafeBytes(of: UInt64(index).littleEndian) { ContentHashFormat.hex(Array(SHA256.hash(data: $0))) }
    }

    static func random() -> String {
        ContentHashFormat.hex((0..<32).map { _ in UInt8.random(in: 0...255) })
    }
}
