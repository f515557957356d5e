import Foundation
import ParleyLocalService
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A listening stream socket for the daemon's line transports: a Unix domain socket at a path, readable and writable by
/// this user only (0600), or a TCP socket (signal-cli's `--tcp`).
final class SocketListener: Sendable {
    /// Why the socket could not be set up.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// Most connections open at once; one more is closed as soon as it is accepted (each holds two threads and a
    /// descriptor, and the descriptors must not run out).
    static let maximumConnections = 64

    /// Where it listens, for people: the socket's path, or `HOST:PORT` with the port actually bound.
    let path: String
    /// Connections open now.
    private let open = Mutex(0)
    /// The socket file to remove on close (`nil` for TCP).
    private let socketFile: String?
    private let descriptor: Int32

    /// Binds and listens at `path`. A stale socket left there by a daemon that died is replaced; any other file is not.
    init(path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { throw SetupError(description: "socket path longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw SetupError(description: "\(path) exists and is not a socket") }
            // A socket someone still answers on belongs to a running daemon: leave it. Only a stale one goes.
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let answered =
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                } == 0
            Glibc.close(probe)
            guard !answered else { throw SetupError(description: "another daemon is listening on \(path)") }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SetupError(description: "socket(): \(String(cString: strerror(errno)))") }
        let previousMask = umask(0o177)  // the socket file is created 0600
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previousMask)
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw SetupError(description: "cannot listen on \(path): \(reason)")
        }
        self.path = path
        socketFile = path
        self.descriptor = descriptor
    }

    /// Binds and listens on TCP at `endpoint` (port 0 picks a free one, which ``path`` then names).
    init(tcp endpoint: HostAndPort) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &found) == 0, let info = found else {
            throw SetupError(description: "cannot resolve \(endpoint.host)")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SetupError(description: "socket(): \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw SetupError(description: "cannot listen on \(endpoint.host):\(endpoint.port): \(reason)")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let port = withUnsafePointer(to: &bound) { pointer -> UInt16 in
            // The port is at the same offset in sockaddr_in6.
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        path = "\(endpoint.host):\(port)"
        socketFile = nil
        self.descriptor = descriptor
    }

    /// Accepted connections, as they come (accept runs on a thread of its own), at most ``maximumConnections`` at once.
    func connections() -> AsyncStream<LineConnection> {
        AsyncStream { continuation in
            Thread.detachNewThread { [self] in
                while true {
                    let client = accept(descriptor, nil, nil)
                    if client < 0 {
                        switch errno {
                        case EINTR, ECONNABORTED, EPROTO: continue
                        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                            // Out of descriptors or memory for now: the listener waits and goes on, it does not end.
                            usleep(100_000)
                            continue
                        default: break
                        }
                        break
                    }
                    guard
                        self.open.withLock({ count in
                            guard count < Self.maximumConnections else { return false }
                            count += 1
                            return true
                        })
                    else {
                        // Told why, in the transport's own terms, before the connection closes.
                        let refusal =
                            Array(#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"too many connections"},"id":null}"#.utf8) + [10]
                        _ = refusal.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                        Glibc.close(client)
                        continue
                    }
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    // A client that stops reading for 5 s is cut off; until then it holds up only its own writes.
                    var timeout = timeval(tv_sec: 5, tv_usec: 0)
                    _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    continuation.yield(
                        LineConnection(input: client, output: client, ownsDescriptors: true) {
                            self.open.withLock { $0 -= 1 }
                        })
                }
                continuation.finish()
            }
        }
    }

    /// Stops listening and removes the socket file.
    func close() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
        if let socketFile { unlink(socketFile) }
    }
}
