import Foundation

/// A device's sender key for one group distribution, sent 1:1 (over the pairwise session) to each member device
/// before that device's first group message from it.
public struct SenderKeyDistribution: Codable, Sendable, Equatable {
    /// The group.
    public var groupId: Data
    /// The distribution the key belongs to (a new one after every member removal).
    public var distributionId: UUID
    /// A Signal `SenderKeyDistributionMessage`, version-3 wire format.
    public var message: Data

    /// A distribution.
    public init(groupId: Data, distributionId: UUID, message: Data) {
        self.groupId = groupId
        self.distributionId = distributionId
        self.message = message
    }

    init(_ wire: Parley_Content_SenderKeyDistribution) throws {
        guard GroupContext.isGroupId(wire.groupID), let distribution = UUID(uuidString: wire.distributionID),
            !wire.message.isEmpty, wire.message.count <= 1024
        else { throw ParleyError.malformedContent("a sender key distribution names a group, a distribution UUID and a key") }
        self.init(groupId: wire.groupID, distributionId: distribution, message: wire.message)
    }

    func wire() -> Parley_Content_SenderKeyDistribution {
        var wire = Parley_Content_SenderKeyDistribution()
        wire.groupID = groupId
        wire.distributionID = distributionId.uuidString.lowercased()
        wire.message = message
        return wire
    }
}
