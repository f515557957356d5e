import Synchronization

/// Group commit for acknowledgements: the sockets' delivery loops hand the envelopes their devices acknowledged to one
/// deleter, which deletes everything waiting in one statement and transaction and answers each loop once it committed.
/// As with ``EnvelopeGroupCommit``, batches form by themselves (while one delete runs, the next acknowledgements
/// queue), at most ``maximumEnvelopes`` a batch; a batch that fails is retried device by device, so one device's failure
/// is its own. Without it, each socket deleted its acknowledgements on its own, a transaction for every few envelopes.
///
/// A device's new socket reads its mailbox only after the deletes its previous socket handed over have committed
/// (``settled(_:)``). That narrows, not closes, the window in which an envelope acknowledged just before a reconnect is
/// delivered again (acknowledgements the old socket had not handed over yet are not waited for): delivery stays at
/// least once, and clients drop an envelope they already stored.
public final class AcknowledgementGroupCommit: Sendable {
    /// Largest batch, in envelopes (one device's acknowledgements are never split; a socket hands over at most
    /// ``AckBuffer/capacity`` at a time).
    public let maximumEnvelopes: Int
    /// Whether devices share transactions; off, every delete is its own transaction (for comparison).
    public let isEnabled: Bool
    private let store: any MailboxStore
    private let metrics: ServerMetrics?

    private struct Waiting {
        let acknowledgements: DeviceAcknowledgements
        let done: CheckedContinuation<Int, any Error>
    }

    private struct State {
        var queue: [Waiting] = []
        var deleting = false
        /// Deletes queued or running, per device.
        var pending: [DeviceAddress: Int] = [:]
        /// Who waits for a device's deletes to finish.
        var settling: [DeviceAddress: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Mutex(State())

    /// A group commit over `store`.
    public init(store: any MailboxStore, enabled: Bool = true, maximumEnvelopes: Int = 2_000, metrics: ServerMetrics? = nil) {
        self.store = store
        self.isEnabled = enabled
        self.metrics = metrics
        self.maximumEnvelopes = max(1, maximumEnvelopes)
    }

    /// Deletes the acknowledged envelopes in the next batch; returns how many of them were deleted once it committed.
    public func delete(_ acknowledgements: DeviceAcknowledgements) async throws -> Int {
        guard !acknowledgements.guids.isEmpty else { return 0 }
        guard isEnabled else { return try await commit([acknowledgements])[0] }
        return try await withCheckedThrowingContinuation { (done: CheckedContinuation<Int, any Error>) in
            let startDeleter = state.withLock { state in
                state.queue.append(Waiting(acknowledgements: acknowledgements, done: done))
                state.pending[Self.address(acknowledgements), default: 0] += 1
                guard !state.deleting else { return false }
                state.deleting = true
                return true
            }
            if startDeleter { Task { await self.deleteWaiting() } }
        }
    }

    /// Returns once every delete of `device` handed over so far has committed or failed.
    public func settled(_ device: DeviceAddress) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.pending[device] != nil else { return true }
                state.settling[device, default: []].append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The deleter: takes what is waiting, deletes it, answers, and goes on until nothing waits.
    private func deleteWaiting() async {
        while let batch = nextBatch() {
            do {
                let deleted = try await commit(batch.map(\.acknowledgements))
                for (waiting, count) in zip(batch, deleted) { finish(waiting, .success(count)) }
            } catch {
                guard batch.count > 1 else {
                    finish(batch[0], .failure(error))
                    continue
                }
                for waiting in batch {
                    do {
                        finish(waiting, .success(try await commit([waiting.acknowledgements])[0]))
                    } catch {
                        finish(waiting, .failure(error))
                    }
                }
            }
        }
    }

    /// One delete transaction, counted in `parley_acknowledgement_transactions_total`; a count for every element, or an
    /// error (so no waiter is left without an answer).
    private func commit(_ acknowledgements: [DeviceAcknowledgements]) async throws -> [Int] {
        metrics?.acknowledgementTransactions.increment()
        let deleted = try await store.deleteEnvelopes(acknowledgements)
        guard deleted.count == acknowledgements.count else {
            throw AcknowledgementCountMismatch(expected: acknowledgements.count, received: deleted.count)
        }
        return deleted
    }

    /// Answers one waiting delete, and whoever waits for its device to settle once it was the device's last.
    private func finish(_ waiting: Waiting, _ result: Result<Int, any Error>) {
        let device = Self.address(waiting.acknowledgements)
        let settled = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            // Every queued delete counted one for its device, and is finished exactly once.
            let left = state.pending[device, default: 0] - 1
            guard left <= 0 else {
                state.pending[device] = left
                return []
            }
            state.pending[device] = nil
            return state.settling.removeValue(forKey: device) ?? []
        }
        waiting.done.resume(with: result)
        for continuation in settled { continuation.resume() }
    }

    private static func address(_ acknowledgements: DeviceAcknowledgements) -> DeviceAddress {
        DeviceAddress(accountId: acknowledgements.accountId, deviceId: acknowledgements.deviceId)
    }

    /// Up to ``maximumEnvelopes`` acknowledged envelopes' worth of waiting devices (at least one), or `nil` (and the
    /// deleter stops) when none wait.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.deleting = false
                return nil
            }
            var count = 0, taken = 0
            while taken < state.queue.count, taken == 0 || count + state.queue[taken].acknowledgements.guids.count <= maximumEnvelopes {
                count += state.queue[taken].acknowledgements.guids.count
                taken += 1
            }
            defer { state.queue.removeFirst(taken) }
            return Array(state.queue.prefix(taken))
        }
    }
}
