import Synchronization

/// Group commit for acknowledgements: the sockets' delivery loops hand the envelopes their devices acknowledged to one
/// deleter (a ``BatchedWriter``), which deletes everything waiting in one statement and transaction and answers each
/// loop once it committed. As with ``EnvelopeGroupCommit``, batches form by themselves (while one delete runs, the next
/// acknowledgements queue), at most ``maximumEnvelopes`` a batch; a batch that fails is retried device by device, so one
/// device's failure is its own. Without it, each socket deleted its acknowledgements on its own, a transaction for
/// every few envelopes.
///
/// A device's new socket reads its mailbox only after the deletes its previous socket handed over have committed
/// (``settled(_:)``). That narrows, not closes, the window in which an envelope acknowledged just before a reconnect is
/// delivered again (acknowledgements the old socket had not handed over yet are not waited for): delivery stays at
/// least once, and clients drop an envelope they already stored.
public final class AcknowledgementGroupCommit: Sendable {
    /// Largest batch, in envelopes (one device's acknowledgements are never split; a socket hands over at most
    /// ``AckBuffer/capacity`` at a time).
    public var maximumEnvelopes: Int { writer.maximumWeight }
    /// Whether devices share transactions; off, every delete is its own transaction (for comparison).
    public let isEnabled: Bool
    private let writer: BatchedWriter<DeviceAcknowledgements, Int>
    private let pending: PendingDeletes

    /// A group commit over `store`.
    public init(store: any MailboxStore, enabled: Bool = true, maximumEnvelopes: Int = 2_000, metrics: ServerMetrics? = nil) {
        self.isEnabled = enabled
        let pending = PendingDeletes()
        self.pending = pending
        writer = BatchedWriter(
            maximumWeight: maximumEnvelopes, weight: { $0.guids.count },
            commit: { acknowledgements in
                // One delete transaction, counted in `parley_acknowledgement_transactions_total`.
                metrics?.acknowledgementTransactions.increment()
                return try await store.deleteEnvelopes(acknowledgements)
            }, answered: { pending.finished(Self.address($0)) })
    }

    /// Deletes the acknowledged envelopes in the next batch; returns how many of them were deleted once it committed.
    public func delete(_ acknowledgements: DeviceAcknowledgements) async throws -> Int {
        guard !acknowledgements.guids.isEmpty else { return 0 }
        guard isEnabled else { return try await writer.commitAlone(acknowledgements) }
        pending.started(Self.address(acknowledgements))
        return try await writer.submit(acknowledgements)
    }

    /// Returns once every delete of `device` handed over so far has committed or failed.
    public func settled(_ device: DeviceAddress) async {
        await pending.settled(device)
    }

    private static func address(_ acknowledgements: DeviceAcknowledgements) -> DeviceAddress {
        DeviceAddress(accountId: acknowledgements.accountId, deviceId: acknowledgements.deviceId)
    }
}

/// The deletes queued or running per device, and who waits for a device's to finish.
private final class PendingDeletes: Sendable {
    private struct State {
        var pending: [DeviceAddress: Int] = [:]
        var settling: [DeviceAddress: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Mutex(State())

    func started(_ device: DeviceAddress) {
        state.withLock { $0.pending[device, default: 0] += 1 }
    }

    /// One delete of `device` was answered; whoever waits for the device is resumed once it was the last.
    func finished(_ device: DeviceAddress) {
        let settled = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let left = state.pending[device, default: 0] - 1
            guard left <= 0 else {
                state.pending[device] = left
                return []
            }
            state.pending[device] = nil
            return state.settling.removeValue(forKey: device) ?? []
        }
        for continuation in settled { continuation.resume() }
    }

    func settled(_ device: DeviceAddress) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.pending[device] != nil else { return true }
                state.settling[device, default: []].append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
