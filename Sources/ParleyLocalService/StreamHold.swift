import NIOCore

/// What one long response holds from the moment it is answered — an event stream, a `/v1/receive` socket, an
/// attachment download: its place among those of its kind, and a watch over its client whose watchdog closes the
/// connection when a write waits longer than the limit (a pending write ends only when its connection does). Both end
/// with the hold: when the response is done, or dropped without ever being written.
public final class StreamHold: Sendable {
    /// The watch every write of the response goes through.
    public let watch: StallWatch
    private let lease: SubscriberSlots.Lease
    private let watchdog: Task<Void, Never>

    /// Holds `lease` and watches writes on `channel`; with `waitingForHead`, the response head Hummingbird writes before
    /// the body runs is watched too, until the body calls ``StallWatch/stopWaiting()``.
    public init(_ lease: SubscriberSlots.Lease, limit: Duration, closing channel: any Channel, waitingForHead: Bool) {
        let watch = StallWatch(limit: limit, waiting: waitingForHead)
        self.watch = watch
        self.lease = lease
        watchdog = Task {
            do { try await watch.watch() } catch is StalledClientError { channel.close(promise: nil) } catch {}
        }
    }

    deinit { watchdog.cancel() }
}
