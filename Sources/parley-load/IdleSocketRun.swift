import Foundation
import ParleyKit
import Synchronization

/// Opens `sockets` authenticated WebSockets (one device each) and holds them idle — after each has sent `sends` messages
/// over its socket to the next device (and acknowledged the ones it received), if `sends` is more than zero, as a
/// client that was used and then left open does.
struct IdleSocketRun: Sendable {
    let api: ParleyServerClient
    let baseURL: String
    let sockets: Int
    let hold: Int
    var sends = 0
    let measure: @Sendable () -> Int?

    struct Result {
        let connected: Int
        let setupSeconds: Double
        let serverMemory: Int?
        /// With sends: the messages the server accepted, and how many of them the sockets received and acknowledged
        /// before the memory was measured.
        var delivered: (sent: Int, received: Int)?
    }

    func execute() async throws -> Result {
        let start = ContinuousClock.now
        let accounts = try await LoadAccount.register(
            api, count: sockets, prefix: "idle-\(UUID().uuidString.prefix(8).lowercased())", parallel: 32)
        let connected = TrafficRun.ReadyCount()
        let received = TrafficRun.ReadyCount()  // its count: envelopes received and acknowledged
        let holders = Task {
            await withTaskGroup(of: Void.self) { group in
                for account in accounts {
                    group.addTask {
                        let socket = MessageSocket(baseURL: baseURL, device: account.credentials)
                        try? await socket.run { frame, writer in
                            switch frame.type {
                            case .queueEmpty:
                                connected.writers.withLock { $0[account.credentials.accountId] = writer }
                                connected.count.withLock { $0 += 1 }
                            case .envelope:
                                if let guid = frame.envelope?.guid {
                                    try await writer.acknowledge(guid)
                                    received.count.withLock { $0 += 1 }
                                }
                            default:
                                break
                            }
                            return !Task.isCancelled
                        }
                    }
                }
            }
        }
        let waitLimit = ContinuousClock.now + .seconds(120)
        while connected.count.withLock({ $0 }) < accounts.count && ContinuousClock.now < waitLimit {
            try await Task.sleep(for: .milliseconds(100))
        }
        defer { holders.cancel() }
        var delivered: (sent: Int, received: Int)?
        if sends > 0 {
            let sent = try await sendOnce(from: accounts, writers: connected.writers.withLock { $0 })
            let receiveLimit = ContinuousClock.now + .seconds(120)
            while received.count.withLock({ $0 }) < sent && ContinuousClock.now < receiveLimit {
                try await Task.sleep(for: .milliseconds(100))
            }
            delivered = (sent, received.count.withLock { $0 })
        }
        let setup = ContinuousClock.now - start
        try await Task.sleep(for: .seconds(hold))
        let memory = measure()
        let count = connected.count.withLock { $0 }
        return Result(connected: count, setupSeconds: seconds(setup), serverMemory: memory, delivered: delivered)
    }

    /// Each connected account sends `sends` messages to the next one over its socket, 64 accounts at a time. Returns how
    /// many the server accepted.
    private func sendOnce(from accounts: [LoadAccount], writers: [String: MessageSocket.Writer]) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var accepted = 0
            for (index, account) in accounts.enumerated() {
                if index >= 64 { accepted += try await group.next() ?? 0 }
                let recipient = accounts[(index + 1) % accounts.count]
                guard let writer = writers[account.credentials.accountId] else { continue }
                group.addTask {
                    var sent = 0
                    for number in 0..<sends {
                        let request = recipient.message(carrying: Data("idle \(number)".utf8))
                        if case .sent = try await writer.send(request, to: recipient.credentials.accountId) { sent += 1 }
                    }
                    return sent
                }
            }
            for try await count in group { accepted += count }
            return accepted
        }
    }
}
