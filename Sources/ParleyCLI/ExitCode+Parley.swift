import ArgumentParser

/// `parley`'s exit codes beyond 0 (success) and ArgumentParser's 64 (usage).
enum ParleyExit {
    /// Any other failure.
    static let failure = ExitCode(1)
    /// The account is not registered yet.
    static let notRegistered = ExitCode(3)
    /// The server could not be reached, failed or refused (other than with ``notFound``).
    static let server = ExitCode(4)
    /// A recipient's safety number changed; `parley trust` first.
    static let untrusted = ExitCode(5)
    /// The database key is wrong or the database is damaged.
    static let database = ExitCode(6)
    /// An attachment matched a blocked content hash.
    static let blocked = ExitCode(7)
    /// A PIN backup could not be made or restored: wrong or too short PIN, no backup, backup deleted, guesses paused.
    static let backup = ExitCode(8)
    /// The server answered that there is no such account, group or attachment (an unknown recipient, say): unlike
    /// ``server``, trying again changes nothing.
    static let notFound = ExitCode(9)
}
