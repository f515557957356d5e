/// The handle a username link is stored under.
public struct UsernameLinkHandle: Codable, Sendable, Equatable {
    /// The handle (a lowercase UUID).
    public let usernameLinkHandle: String

    /// The handle `usernameLinkHandle`.
    public init(usernameLinkHandle: String) { self.usernameLinkHandle = usernameLinkHandle }
}
