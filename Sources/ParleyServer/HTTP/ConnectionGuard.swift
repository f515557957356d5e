import NIOCore
import Synchronization

/// Counts open connections in all and per client address, and admits a new one only within ``ConnectionLimits``.
public final class ConnectionGuard: Sendable {
    /// The bounds it enforces.
    public let limits: ConnectionLimits
    private let state = Mutex<(total: Int, perAddress: [String: Int])>((0, [:]))

    /// A guard for `limits`.
    public init(limits: ConnectionLimits = ConnectionLimits()) { self.limits = limits }

    /// Admits a connection from `address` (counted until ``release(_:)``), or refuses it.
    func admit(_ address: String) -> Bool {
        state.withLock { state in
            let fromAddress = state.perAddress[address, default: 0]
            guard state.total < limits.maximumConnections,
                fromAddress < limits.maximumConnectionsPerAddress || limits.trustedProxies.contains(address)
            else { return false }
            state.total += 1
            state.perAddress[address] = fromAddress + 1
            return true
        }
    }

    /// Admits `channel` by its client address, counted until it closes, or refuses it (the caller closes it).
    func admit(_ channel: any Channel) -> Bool {
        let address = channel.remoteAddress?.ipAddress ?? channel.remoteAddress?.description ?? "unknown"
        guard admit(address) else { return false }
        channel.closeFuture.whenComplete { [self] _ in release(address) }
        return true
    }

    /// An admitted connection from `address` closed.
    func release(_ address: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.perAddress[address, default: 1] - 1
            state.perAddress[address] = left > 0 ? left : nil
        }
    }

    /// Connections open now.
    public var openConnections: Int { state.withLock { $0.total } }
}
