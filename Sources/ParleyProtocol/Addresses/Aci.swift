import Foundation

/// An account identifier (ACI): the service id of an account.
public final class Aci: ServiceId, @unchecked Sendable {
    /// The ACI with this UUID.
    public init(fromUUID uuid: UUID) { super.init(kind: .aci, uuid: uuid) }
}
