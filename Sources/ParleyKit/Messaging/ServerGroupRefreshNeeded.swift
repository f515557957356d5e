import Foundation

/// Stops a receive transaction: the message names a server-stored group this device is behind on or does not know.
/// The receiver reads the group from the server (``ServerGroups/refresh(masterKey:author:)``) and applies the
/// message again, once.
struct ServerGroupRefreshNeeded: Error {
    /// The group's master key, from the message.
    let masterKey: Data
    /// The message's author (the notice of the change is attributed to them).
    let author: String
}
