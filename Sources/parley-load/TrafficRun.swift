import Foundation
import Histogram
import ParleyAPI
import ParleyKit
import Synchronization

/// One traffic measurement: `clients` devices with open sockets; client i sends to client i+1.
/// Each message carries its send time (monotonic clock, same machine), so the receiver records send→receive latency.
struct TrafficRun: Sendable {
    let api: ParleyServerClient
    let clients: Int
    let rate: Int
    let duration: Int
    let concurrency: Int
    let payload: Int
    /// Sends as request frames over each client's own socket instead of HTTP requests.
    let overSocket: Bool
    /// Whether the sockets use binary frames (else JSON text frames).
    let binaryFrames: Bool
    /// The server's process id, to read its CPU time from /proc.
    let serverPid: Int32?
    /// Where the receivers' sockets connect (another server process on the same PostgreSQL, or the same server).
    let receiveBaseURL: String

    final class ReadyCount: Sendable {
        let count = Mutex(0)
        /// Each client's socket writer, by account id, once its socket is open.
        let writers = Mutex<[String: MessageSocket.Writer]>([:])
    }

    final class Tally: Sendable {
        struct State {
            var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
            var accepted = 0
            var delivered = 0
            var rejected = 0
            var errors: [String: Int] = [:]
            var measuring = false
        }
        let state = Mutex(State())
    }

    func execute() async throws -> TrafficReport {
        let prefix = "load-\(UUID().uuidString.prefix(8).lowercased())"
        let setupStart = ContinuousClock.now
        let accounts = try await LoadAccount.register(api, count: clients, prefix: prefix)
        let tally = Tally()
        let ready = ReadyCount()
        let sockets = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for account in accounts {
                    group.addTask { try await receive(as: account, tally: tally, ready: ready) }
                }
                try await group.waitForAll()
            }
        }
        while ready.count.withLock({ $0 }) < clients { try await Task.sleep(for: .milliseconds(50)) }
        let setup = ContinuousClock.now - setupStart

        tally.state.withLock { $0.measuring = true }
        let cpuBefore = (server: serverPid.flatMap(cpuSeconds(pid:)), generator: cpuSeconds(pid: getpid()))
        let start = ContinuousClock.now
        let deadline = start + .seconds(duration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, account) in accounts.enumerated() {
                let recipient = accounts[(index + 1) % accounts.count]
                let lanes = rate == 0 ? concurrency : 1
                let writer = ready.writers.withLock { $0[account.credentials.accountId] }
                for _ in 0..<lanes {
                    group.addTask { await send(from: account, to: recipient, over: writer, until: deadline, tally: tally) }
                }
            }
            try await group.waitForAll()
        }
        let sendingTime = ContinuousClock.now - start
        let cpuAfter = (server: serverPid.flatMap(cpuSeconds(pid:)), generator: cpuSeconds(pid: getpid()))
        // Let the last messages arrive, then stop counting.
        try await Task.sleep(for: .seconds(2))
        tally.state.withLock { $0.measuring = false }
        sockets.cancel()
        let state = tally.state.withLock { $0 }
        return TrafficReport(
            clients: clients, targetRate: rate, seconds: seconds(sendingTime), setupSeconds: seconds(setup),
            accepted: state.accepted, delivered: state.delivered, rejected: state.rejected,
            errors: state.errors, latency: state.latency,
            serverCPU: cpuBefore.server.flatMap { before in cpuAfter.server.map { $0 - before } },
            generatorCPU: cpuBefore.generator.flatMap { before in cpuAfter.generator.map { $0 - before } })
    }

    private func send(
        from account: LoadAccount, to recipient: LoadAccount, over writer: MessageSocket.Writer?,
        until deadline: ContinuousClock.Instant, tally: Tally
    ) async {
        let interval: Duration? = rate > 0 ? .seconds(Double(clients) / Double(rate)) : nil
        var next = ContinuousClock.now
        let filler = [UInt8](repeating: 0x2a, count: max(0, payload - 8))
        while ContinuousClock.now < deadline {
            if let interval {
                next += interval
                try? await Task.sleep(until: next, clock: .continuous)
            }
            var content = withUnsafeBytes(of: monotonicNanoseconds().littleEndian, Array.init)
            content += filler
            let request = recipient.message(carrying: Data(content))
            do {
                let outcome =
                    if overSocket, let writer {
                        try await writer.send(request, to: recipient.credentials.accountId)
                    } else {
                        try await api.send(request, to: recipient.credentials.accountId, as: account.credentials)
                    }
                tally.state.withLock { state in
                    if case .sent = outcome { state.accepted += 1 } else { state.rejected += 1 }
                }
            } catch {
                let key = (error as? ParleyError)?.server?.code ?? "\(error)".prefix(60).description
                tally.state.withLock { $0.errors[key, default: 0] += 1 }
            }
        }
    }

    private func receive(as account: LoadAccount, tally: Tally, ready: ReadyCount) async throws {
        let socket = MessageSocket(baseURL: receiveBaseURL, device: account.credentials, binaryFrames: binaryFrames)
        try await socket.run { frame, writer in
            switch frame.type {
            case .queueEmpty:
                ready.writers.withLock { $0[account.credentials.accountId] = writer }
                ready.count.withLock { $0 += 1 }
            case .envelope:
                guard let envelope = frame.envelope else { return true }
                let now = monotonicNanoseconds()
                if let bytes = Data(base64Encoded: envelope.content), bytes.count >= 8 {
                    let sent = bytes.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian
                    tally.state.withLock { state in
                        guard state.measuring else { return }
                        state.delivered += 1
                        _ = state.latency.record(now > sent ? (now - sent) / 1000 : 0)
                    }
                }
                try await writer.acknowledge(envelope.guid)
            default:
                break
            }
            return !Task.isCancelled
        }
    }
}

/// Nanoseconds on the monotonic clock (comparable between processes on one machine).
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
