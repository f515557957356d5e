/// A push provider's configuration that cannot work, found when the server starts.
public enum PushConfigurationError: Error, Equatable, CustomStringConvertible {
    /// The VAPID key file does not hold a P-256 private key.
    case invalidVAPIDKey
    /// The VAPID contact is not a `mailto:` or `https://` URI.
    case invalidVAPIDSubject(String)
    /// An APNs `.p8` key that is not a P-256 private key in PEM.
    case invalidAPNsKey(path: String)
    /// An APNs key id or team id that is not 10 characters of A–Z and 0–9.
    case invalidAPNsIdentifier(String)
    /// A service-account file that is not JSON with `project_id`, `private_key`, `client_email` and `token_uri`.
    case invalidServiceAccount(path: String, reason: String)
    /// A URL that is not absolute `https`.
    case invalidEndpoint(String)

    public var description: String {
        switch self {
        case .invalidVAPIDKey: return "the VAPID key file does not hold a P-256 private key"
        case .invalidVAPIDSubject(let subject): return "the VAPID subject '\(subject)' is not a mailto: or https:// URI"
        case .invalidAPNsKey(let path): return "\(path) is not an APNs token signing key (a P-256 private key, PEM)"
        case .invalidAPNsIdentifier(let value): return "'\(value)' is not an Apple key or team id (10 characters, A–Z and 0–9)"
        case .invalidServiceAccount(let path, let reason): return "\(path) is not a usable service-account file: \(reason)"
        case .invalidEndpoint(let url): return "'\(url)' is not an absolute https URL"
        }
    }
}
