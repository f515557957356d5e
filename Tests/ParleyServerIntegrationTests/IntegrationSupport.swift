import AsyncHTTPClient
import Foundation
import Logging
import ParleyAPI
import ParleyTestSupport

@testable import ParleyKit

/// A registered device for the integration tests (opaque ciphertexts: the server never reads them).
struct TestDevice: Sendable {
    let credentials: DeviceCredentials
    let registrationId: UInt32

    static func register(_ api: ParleyServerClient, _ name: String) async throws -> TestDevice {
        let password = DeviceCredentials.makePassword()
        let registrationId = UInt32.random(in: 1...16380)
        let key = Data([0x05] + (0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let response = try await api.register(
            RegisterAccountRequest(
                username: name, identityKey: key, registrationId: registrationId, password: password, deviceName: nil))
        return TestDevice(
            credentials: DeviceCredentials(accountId: response.accountId, deviceId: 1, password: password),
            registrationId: registrationId)
    }

    /// Adds a device to this (primary) device's account.
    func link(_ api: ParleyServerClient) async throws -> TestDevice {
        let code = try await api.issueLinkCode(as: credentials)
        let password = DeviceCredentials.makePassword()
        let registrationId = UInt32.random(in: 1...16380)
        let linked = try await api.link(
            LinkDeviceRequest(code: code.code, registrationId: registrationId, password: password, deviceName: nil))
        return TestDevice(
            credentials: DeviceCredentials(accountId: linked.accountId, deviceId: linked.deviceId, password: password),
            registrationId: registrationId)
    }
}

/// Sends `text` as an opaque ciphertext to every device in `devices` (all of one account).
func sendText(_ text: String, from sender: TestDevice, to devices: [TestDevice], api: ParleyServerClient) async throws -> SendOutcome {
    try await api.send(textRequest(text, to: devices), to: devices[0].credentials.accountId, as: sender.credentials)
}

/// `text` as one opaque ciphertext per device of `devices` (all of one account).
func textRequest(_ text: String, to devices: [TestDevice]) -> SendMessagesRequest {
    SendMessagesRequest(
        messages: devices.map {
            OutgoingMessage(
                destinationDeviceId: $0.credentials.deviceId, destinationRegistrationId: $0.registrationId, type: 2,
                content: Data(text.utf8).base64EncodedString())
        }, timestamp: UInt64(Date().timeIntervalSince1970 * 1000))
}

/// Drains `device`'s mailbox over its socket, acknowledging everything; returns the texts in arrival order.
func drain(_ device: TestDevice, baseURL: String) async throws -> [String] {
    let received = ReceivedTexts()
    try await MessageSocket(baseURL: baseURL, device: device.credentials).run { frame, writer in
        switch frame.type {
        case .envelope:
            let envelope = frame.envelope!
            received.append(String(decoding: Data(base64Encoded: envelope.content) ?? Data(), as: UTF8.self))
            try await writer.acknowledge(envelope.guid)
            return true
        case .queueEmpty:
            return false
        default:
            return true
        }
    }
    return received.texts
}

/// Texts collected by a socket handler.
final class ReceivedTexts: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ text: String) { lock.withLock { storage.append(text) } }
    var texts: [String] { lock.withLock { storage } }
}

/// A process run to its end: exit status and output.
struct ProcessRun: Sendable {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Runs `process` (executable and arguments set) on a thread of its own and collects its output, without holding
    /// one of Swift concurrency's few threads while it runs (``runBlocking(_:)``).
    static func run(_ process: ChildProcess) async throws -> ProcessRun {
        let handle = BlockingHandle(process)
        return try await runBlocking { try runToCompletion(handle.value) }
    }

    private static func runToCompletion(_ process: ChildProcess) throws -> ProcessRun {
        // Both streams collected together by ``SpawnedProcess`` (a child filling one never blocks on the other).
        var input: Int32?
        switch process.standardInput {
        case let pipe as Pipe: input = pipe.fileHandleForReading.fileDescriptor
        case let handle as FileHandle: input = handle.fileDescriptor
        default: input = nil
        }
        guard let executable = process.executableURL?.path else { throw ChildProcess.Failure(description: "no executable") }
        let run = try SpawnedProcess.run(
            executable, process.arguments, environment: process.environment ?? ProcessInfo.processInfo.environment,
            input: input, directory: process.currentDirectoryURL?.path)
        return ProcessRun(
            status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self), stderr: String(decoding: run.stderr, as: UTF8.self))
    }
}

/// A value handed to a thread of its own by ``runBlocking(_:)`` and not touched by the caller meanwhile (`ChildProcess`,
/// pipes and file handles are not `Sendable`).
struct BlockingHandle<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

extension ChildProcess {
    /// Waits for the process to exit, on a thread of its own (``runBlocking(_:)``).
    func exited() async {
        let handle = BlockingHandle(self)
        await runBlocking { handle.value.waitUntilExit() }
    }
}

extension FileHandle {
    /// Everything until end of file, read on a thread of its own (``runBlocking(_:)``).
    func readAll() async -> Data {
        let handle = BlockingHandle(self)
        return await runBlocking { handle.value.readDataToEndOfFile() }
    }
}
