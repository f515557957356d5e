import Foundation

/// A group-send token with its expiration: what a sender attaches to a multi-recipient sealed-sender message so the
/// server knows the recipients share a group with the sender, without learning the group or the sender. 33 bytes:
/// `0x00`, the 16 token bytes with their u64 length, the expiration (u64, seconds).
public final class GroupSendFullToken: ByteArray, @unchecked Sendable {
    let raw: [UInt8]
    let expirationSeconds: UInt64

    /// The token `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length or a reserved byte other than 0.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "GroupSendFullToken")
        try reader.expectByte(0)
        raw = try reader.bytes(reader.count(atMost: 16))
        expirationSeconds = try reader.u64()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(raw: [UInt8], expiration: UInt64) {
        self.raw = raw
        expirationSeconds = expiration
        super.init(checked: [0] + ZKGroupReader.littleEndian(UInt64(raw.count)) + raw + ZKGroupReader.littleEndian(expiration))
    }

    /// When the token stops being accepted.
    public var expiration: Date { Date(timeIntervalSince1970: TimeInterval(expirationSeconds)) }

    /// Checks that the token endorses exactly `userIds` (in any order) and has not expired at `now`; `keyPair` is the
    /// server's key for the token's expiration (``GroupSendDerivedKeyPair/forExpiration(_:params:)``).
    /// - Throws: ``SignalError/verificationFailed(_:)`` when it has expired, `keyPair` is for another expiration, or it
    ///   does not endorse exactly these users.
    public func verify(userIds: [ServiceId], now: Date = Date(), keyPair: GroupSendDerivedKeyPair) throws {
        guard now.timeIntervalSince1970 <= TimeInterval(expirationSeconds) else {
            throw SignalError.verificationFailed("the group send token has expired")
        }
        guard keyPair.expiration == expirationSeconds else {
            throw SignalError.verificationFailed("the key pair is for another expiration than the token")
        }
        let sum = userIds.reduce(RistrettoPoint.identity) { $0 + ServiceIdPoints.m1($1) }
        guard ConstantTime.equals(GroupSendEndorsement.tokenBytes(keyPair.secret * sum), raw) else {
            throw SignalError.verificationFailed("the group send token does not endorse these users")
        }
    }
}
