import Foundation
import ParleyProtocol

/// Who calls a group route: a holder of an auth credential, known to the server only by their member id under the
/// group's key (a `UuidCiphertext`), the same bytes the group stores for them.
public struct GroupCaller: Sendable {
    /// The group's public params (the credential was presented against them).
    public let publicParams: GroupPublicParams
    /// The group identifier they name (32 bytes).
    public let groupId: [UInt8]
    /// The caller's ACI ciphertext under the group's key.
    public let userId: Data

    /// A verified caller.
    public init(publicParams: GroupPublicParams, groupId: [UInt8], userId: Data) {
        self.publicParams = publicParams
        self.groupId = groupId
        self.userId = userId
    }
}
