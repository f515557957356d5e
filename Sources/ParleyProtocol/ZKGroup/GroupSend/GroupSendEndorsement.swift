import Crypto
import Foundation

/// A server's endorsement of one group member (or, combined, of several): R = sk′·E, E the first point of the member's
/// ``UuidCiphertext``. A sender turns the endorsements of a message's recipients into a ``Token`` that proves to the
/// server they are members of one group, without saying which group or who sends. 33 bytes: `0x00`, R.
public final class GroupSendEndorsement: ByteArray, @unchecked Sendable {
    let point: RistrettoPoint

    /// The endorsement `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for another length, a reserved byte other than 0 or an invalid point.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "GroupSendEndorsement")
        try reader.expectByte(0)
        point = try reader.point()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    init(point: RistrettoPoint) {
        self.point = point
        super.init(checked: [0] + point.bytes)
    }

    /// The endorsement of all of `endorsements`' members together (the sum; the identity for none).
    public static func combine(_ endorsements: some Collection<GroupSendEndorsement>) -> GroupSendEndorsement {
        GroupSendEndorsement(point: endorsements.reduce(RistrettoPoint.identity) { $0 + $1.point })
    }

    /// This endorsement without the members `toRemove` endorses.
    public func byRemoving(_ toRemove: GroupSendEndorsement) -> GroupSendEndorsement {
        GroupSendEndorsement(point: point - toRemove.point)
    }

    /// The token this endorsement gives in the group whose secrets are `groupParams`: SHA-256 of a1⁻¹·R, cut to 16
    /// bytes (a1 the group's service-id key, so the token no longer depends on the group).
    public func toToken(groupParams: GroupSecretParams) -> Token {
        // a1 is a SHO output, never zero.
        guard let inverse = groupParams.serviceIdKeys.a1.inverse else { preconditionFailure("a group's service-id key is zero") }
        return Token(raw: Self.tokenBytes(inverse * point))
    }

    /// ``toToken(groupParams:)`` with its expiration, ready to send.
    public func toFullToken(groupParams: GroupSecretParams, expiration: Date) -> GroupSendFullToken {
        toToken(groupParams: groupParams).toFullToken(expiration: expiration)
    }

    /// The 16 token bytes of an unblinded endorsement.
    static func tokenBytes(_ unblinded: RistrettoPoint) -> [UInt8] { Array(SHA256.hash(data: unblinded.bytes).prefix(16)) }

    /// An endorsement as a token: 25 bytes, `0x00` then the 16 token bytes with their u64 length.
    public final class Token: ByteArray, @unchecked Sendable {
        let raw: [UInt8]

        /// The token `contents` holds.
        /// - Throws: ``SignalError/invalidType(_:)`` for another length or a reserved byte other than 0.
        public required init(contents: Data) throws {
            var reader = ZKGroupReader([UInt8](contents), reading: "GroupSendEndorsement.Token")
            try reader.expectByte(0)
            raw = try reader.bytes(reader.count(atMost: 16))
            try reader.finish()
            super.init(checked: [UInt8](contents))
        }

        init(raw: [UInt8]) {
            self.raw = raw
            super.init(checked: [0] + ZKGroupReader.littleEndian(UInt64(raw.count)) + raw)
        }

        /// The token with its expiration, as a sender presents it.
        public func toFullToken(expiration: Date) -> GroupSendFullToken {
            GroupSendFullToken(raw: raw, expiration: ZKGroupTime.seconds(expiration))
        }
    }
}
