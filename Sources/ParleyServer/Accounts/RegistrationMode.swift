/// Who may register (`parley-server --registration`).
public enum RegistrationMode: String, Sendable, CaseIterable {
    /// Anyone.
    case open
    /// Only with an operator's invite token (`parley-server invites create`), single- or multi-use.
    case token
    /// Nobody: the operator adds no one (existing accounts still link devices).
    case closed
}
