import ParleyAPI

/// The server's answer to a send.
public enum SendOutcome: Sendable, Equatable {
    /// Stored for every device, at this server time.
    case sent(serverTimestamp: UInt64)
    /// The device list was wrong: add sessions for `missing`, drop `extra`, then send again (409).
    case mismatchedDevices(MismatchedDevicesResponse)
    /// These devices were re-registered: rebuild their sessions, then send again (410).
    case staleDevices(StaleDevicesResponse)
}
