import Foundation
import ParleyKit
import Synchronization

/// Opens `sockets` authenticated WebSockets (one device each) and holds them idle.
struct IdleSocketRun: Sendable {
    let api: ParleyServerClient
    let baseURL: String
    let sockets: Int
    let hold: Int
    let measure: @Sendable () -> Int?

    struct Result {
        let connected: Int
        let setupSeconds: Double
        let serverMemory: Int?
    }

    func execute() async throws -> Result {
        let start = ContinuousClock.now
        let accounts = try await LoadAccount.register(api, count: sockets, prefix: "idle-\(UUID().uuidString.prefix(8).lowercased())", parallel: 32)
        let connected = TrafficRun.ReadyCount()
        let holders = Task {
            await withTaskGroup(of: Void.self) { group in
                for account in accounts {
                    group.addTask {
                        let socket = MessageSocket(baseURL: baseURL, device: account.credentials)
                        try? await socket.run { frame, _ in
                            if frame.type == .queueEmpty { connected.count.withLock { $0 += 1 } }
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
        let setup = ContinuousClock.now - start
        try await Task.sleep(for: .seconds(hold))
        let memory = measure()
        let count = connected.count.withLock { $0 }
        holders.cancel()
        return Result(connected: count, setupSeconds: seconds(setup), serverMemory: memory)
    }
}
