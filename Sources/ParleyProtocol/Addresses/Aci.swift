import Foundation

/// An account identifier (ACI): the service id of an account.
public final class Aci: ServiceId, @unchecked Sendable {
    /// The ACI with this UUID.
    public init(fromUUID uuid: UUID) { super.init(kind: .aci, uuid: uuid) }

    /// The ACI whose UUID is these 16 bytes (the caller checked the count).
    static func parseFrom(uuidBytes bytes: ArraySlice<UInt8>) -> Aci {
        let b = Array(bytes)
        return Aci(
            fromUUID: UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
    }
}
