import Foundation

/// Server time as the store and the wire carry it.
public enum ServerClock {
    /// Milliseconds since 1970, now.
    public static func milliseconds() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }
}
