/// Why the server refused a group request.
public enum GroupRuleError: Error, Equatable, CustomStringConvertible {
    /// The request is malformed or would leave the group invalid (400).
    case invalid(String)
    /// The caller may not do this (403).
    case forbidden(String)
    /// No group has this identifier (404).
    case notFound
    /// The change was made from a revision that is no longer current (409): re-read and try again.
    case staleRevision(current: UInt32)

    public var description: String {
        switch self {
        case .invalid(let reason): reason
        case .forbidden(let reason): reason
        case .notFound: "no group has these public params"
        case .staleRevision(let current): "the group is at revision \(current); fetch the changes since and make the change again"
        }
    }
}
