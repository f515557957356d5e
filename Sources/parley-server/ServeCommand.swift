import ArgumentParser
import Logging
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
        let logger = Logger(label: "parley-server")
        let dependencies = ServerDependencies(
            store: store, attachments: try AttachmentStore(directory: URL(fileURLWithPath: dataDirectory).appendingPathComponent("attachments")))
        let maintenance = MaintenanceService(dependencies: dependencies, logger: logger)
        try await ParleyServerApplication.make(dependencies, host: host, port: port, services: [maintenance], logger: logger).runService()
    }
}
