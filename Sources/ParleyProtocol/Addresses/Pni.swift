import Foundation

/// A phone-number identifier (PNI): the service id an account has through its phone number.
public final class Pni: ServiceId, @unchecked Sendable {
    /// The PNI with this UUID.
    public init(fromUUID uuid: UUID) { super.init(kind: .pni, uuid: uuid) }
}
