/// Why sealed-sender keys could not be used or made.
public enum SealedSenderSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server certificate certifies a key other than the server key beside it.
    case certificateDoesNotMatchKey
    /// The server certificate is not signed by the trust root.
    case certificateNotSignedByTrustRoot
    /// A key or certificate file does not parse.
    case malformedFile(path: String)
    /// Rotation needs the trust root's private key, which is not in the data directory (kept offline).
    case trustRootOffline(path: String)

    /// A sentence for the operator.
    public var description: String {
        switch self {
        case .certificateDoesNotMatchKey: return "the sealed-sender server certificate does not certify the server key beside it"
        case .certificateNotSignedByTrustRoot: return "the sealed-sender server certificate is not signed by the trust root"
        case .malformedFile(let path): return "\(path) is not a sealed-sender key or certificate"
        case .trustRootOffline(let path):
            return
                "the trust root's private key is not at \(path); copy it there (or pass --trust-root-key) to sign a new server certificate"
        }
    }
}
