import Foundation

/// Whom a message goes to.
public enum Recipient: Sendable, Hashable {
    /// A person: an account id, a contact's username, or a username to look up on the server (when the server cannot
    /// be reached, the message waits with the name until it can).
    case person(String)
    /// A group this account is a member of, by its id.
    case group(Data)
}
