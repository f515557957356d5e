import Foundation
import ParleyTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a loopback port, for probing the server below HTTP (stalled heads, idle sockets).
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError.failed("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw RawConnectionError.failed("connect")
        }
    }

    deinit { close(descriptor) }

    /// Sends `text`; `false` once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(bytes: Array(text.utf8)) }

    /// Sends `bytes`; `false` once the server has closed the connection.
    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Closes the sending half: the server reads the end of the stream, and can still answer.
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// What arrives within `seconds`, until the server closes the connection or nothing more comes; `closed` tells
    /// whether it closed. The blocking read runs on a thread of its own (``runBlocking(_:)``).
    func read(for seconds: Double) async -> (text: String, closed: Bool) {
        let (bytes, closed) = await readBytes(for: seconds)
        return (String(decoding: bytes, as: UTF8.self), closed)
    }

    /// The bytes that arrive within `seconds` (see ``read(for:)``).
    func readBytes(for seconds: Double) async -> (bytes: [UInt8], closed: Bool) {
        await runBlocking { self.blockingRead(for: seconds) }
    }

    private func blockingRead(for seconds: Double) -> (bytes: [UInt8], closed: Bool) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return (received, true) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return (received, true)  // reset
            }
            received += buffer.prefix(count)
        }
        return (received, false)
    }
}

enum RawConnectionError: Error {
    case failed(String)
}
