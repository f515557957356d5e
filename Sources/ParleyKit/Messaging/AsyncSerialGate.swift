import Foundation
import Synchronization

/// Lets one async caller through at a time, the others waiting in order (a mutex for code that awaits inside).
final class AsyncSerialGate: Sendable {
    /// Whether a caller is inside, and those waiting in order.
    private let state = Mutex<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Runs `body` once every earlier caller's body has finished.
    func run<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let enter = state.withLock { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if enter { continuation.resume() }
        }
        defer {
            let next = state.withLock { state in
                if state.waiting.isEmpty {
                    state.busy = false
                    return nil as CheckedContinuation<Void, Never>?
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}
