import Foundation

/// Runs blocking work — waiting for a subprocess, a blocking socket read — on a thread of its own and awaits it.
///
/// Swift's cooperative pool has one thread per core: on a 2-core machine, two tests blocking its threads (a Python
/// client running for a minute, a read with a timeout) stall every in-process server and client of the tests running
/// beside them until the blocking ends. Tests wait through this instead.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// ``runBlocking(_:)`` for work that cannot fail.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
