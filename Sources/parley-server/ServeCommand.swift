import ArgumentParser
import Foundation
import ParleyServer

/// `parley-server`: starts the server. With no flags it keeps everything under ./parley-data (SQLite).
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-server", abstract: "The Parley messaging server (accounts, devices and key directory).")

    @Option(help: "Address to listen on (environment: PARLEY_HOST).")
    var host = ProcessInfo.processInfo.environment["PARLEY_HOST"] ?? "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one (environment: PARLEY_PORT).")
    var port = Int(ProcessInfo.processInfo.environment["PARLEY_PORT"] ?? "") ?? 8080

    @Option(help: "Directory for the database and blobs (environment: PARLEY_DATA_DIR).")
    var dataDirectory = ProcessInfo.processInfo.environment["PARLEY_DATA_DIR"] ?? "./parley-data"

    func run() async throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: (dataDirectory as NSString).appendingPathComponent("server.sqlite"))
        let limits = ServerLimits()
        let sweeper = Task {
            // Expired envelopes and link codes are never honoured; this reclaims their space once an hour.
            while !Task.isCancelled {
                let now = ServerClock.milliseconds()
                let cutoff = now &- limits.messageLifetimeMilliseconds
                _ = try? await store.deleteEnvelopes(olderThan: cutoff)
                _ = try? await store.deleteLinkCodes(expiredBefore: now)
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        defer { sweeper.cancel() }
        try await ParleyServerApplication.make(store: store, limits: limits, host: host, port: port).runService()
    }
}
