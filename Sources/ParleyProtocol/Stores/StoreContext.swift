/// Whatever the caller's stores need to do their work (a database transaction, say), passed through unchanged.
///
/// It also carries the ``SessionSetupPolicy``; contexts that do not say otherwise accept X3DH and PQXDH.
public protocol StoreContext {
    /// Which session setups the operations accept. Default: ``SessionSetupPolicy/allowX3DH``.
    var sessionSetupPolicy: SessionSetupPolicy { get }
}

extension StoreContext {
    /// Accepts X3DH (version 3) and PQXDH (version 4) session setup.
    public var sessionSetupPolicy: SessionSetupPolicy { .allowX3DH }
}

/// A context with no data: for in-memory stores.
public struct NullContext: StoreContext, Sendable {
    /// The session setups this context accepts.
    public let sessionSetupPolicy: SessionSetupPolicy

    /// A context with the given policy (default: accept X3DH and PQXDH).
    public init(sessionSetupPolicy: SessionSetupPolicy = .allowX3DH) {
        self.sessionSetupPolicy = sessionSetupPolicy
    }
}

/// Which kinds of session setup are accepted.
///
/// Current libsignal builds only PQXDH sessions and refuses X3DH pre-key messages;
/// ``requirePQXDH`` does the same. ``allowX3DH`` also talks to Signal's C library and older peers.
public enum SessionSetupPolicy: Sendable, Equatable {
    /// X3DH (version 3) and PQXDH (version 4) are both accepted.
    case allowX3DH
    /// Only PQXDH: bundles without a KEM prekey and version-3 pre-key messages fail with ``SignalError/sessionSetupRefused(_:)``.
    case requirePQXDH
}
