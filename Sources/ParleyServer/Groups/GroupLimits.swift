/// Bounds on what a group may hold and what one request may ask of the server.
public struct GroupLimits: Sendable {
    /// Full members plus invited members (Signal's limit is 1,001 with the creator).
    public var maximumMembers = 1_001
    /// People waiting for an administrator's approval.
    public var maximumRequestingMembers = 1_000
    /// Banned people.
    public var maximumBannedMembers = 1_000
    /// An encrypted title (a 32-character title encrypts to well under this).
    public var titleBytes = 1_024
    /// An encrypted description.
    public var descriptionBytes = 8_192
    /// An avatar's location.
    public var avatarCharacters = 1_024
    /// An encrypted disappearing-message timer.
    public var timerBytes = 256
    /// A request body (a group of 1,001 members, each with a 721-byte presentation, fits).
    public var bodyBytes = 2 * 1024 * 1024
    /// Change-log entries per answer (the client asks again from the next revision).
    public var changesPerPage = 64
    /// Actions in one change, all lists together.
    public var actionsPerChange = 1_100

    /// The defaults.
    public init() {}
}
