import Foundation
import Synchronization

/// The fan-out behind ``ParleyClient/events()``: every subscriber gets its own stream of what the client publishes,
/// each bounded (a subscriber that stops reading loses its oldest events, never holds up the pipelines).
final class ClientEvents: Sendable {
    /// Events one subscriber may have unread before its oldest are dropped.
    static let bufferLimit = 1_000
    /// The subscribers' continuations, by subscription.
    private let subscribers = Mutex<[UUID: AsyncStream<ClientEvent>.Continuation]>([:])

    /// A new subscription: it ends when the stream is released, its consumer's task is cancelled, or the client shuts
    /// down (``finishAll()``) or is released.
    func subscribe() -> AsyncStream<ClientEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: ClientEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// Hands `event` to every subscriber.
    func publish(_ event: ClientEvent) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// Ends every subscription: their `for await` loops finish.
    func finishAll() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }

    deinit { finishAll() }

    /// How many subscribers there are now.
    var count: Int { subscribers.withLock { $0.count } }
}
