/// The id a newly linked device takes: the lowest one the account's devices leave free, from 2 up (the primary is 1),
/// as Signal-Server does. Ids freed by removed devices are taken again, so they stay within 1…127 — the range Signal's
/// formats carry (a multi-recipient message names a device in 7 bits) — however often devices come and go.
enum DeviceIdAllocation {
    /// The largest device id Signal's formats carry.
    static let maximumDeviceId: UInt32 = 127

    /// The lowest id from 2 up that `taken` does not hold, or `nil` when every id up to ``maximumDeviceId`` is taken.
    static func lowestFree(taken: some Sequence<Int64>) -> UInt32? {
        let taken = Set(taken)
        return (2...maximumDeviceId).first { !taken.contains(Int64($0)) }
    }
}
