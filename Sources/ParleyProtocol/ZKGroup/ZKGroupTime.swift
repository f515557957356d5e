import Foundation

/// zkgroup's clock: credentials and endorsements name times in whole seconds since 1970 (libsignal's `Timestamp`), and
/// their days start at multiples of 86,400.
enum ZKGroupTime {
    /// Seconds in a day.
    static let secondsPerDay: UInt64 = 86_400

    /// `date`'s whole seconds since 1970 (0 before it).
    static func seconds(_ date: Date) -> UInt64 { UInt64(max(0, date.timeIntervalSince1970.rounded(.down))) }
}
