import Foundation

/// Lets one async caller through at a time, the others waiting in order (a mutex for code that awaits inside).
final class AsyncSerialGate: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var busy = false
    nonisolated(unsafe) private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier caller's body has finished.
    func run<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let enter = lock.withLock {
                if busy {
                    waiting.append(continuation)
                    return false
                }
                busy = true
                return true
            }
            if enter { continuation.resume() }
        }
        defer {
            let next = lock.withLock {
                if waiting.isEmpty {
                    busy = false
                    return nil as CheckedContinuation<Void, Never>?
                }
                return waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}
