import Foundation

/// What another device's message did to earlier ones when it was applied here — a reaction, an edit, a delete for
/// everyone, a receipt — for front doors that tell their clients about it (``ReceiveOutcome/acted(_:)``).
public struct AppliedAct: Sendable, Equatable {
    /// What was done.
    public enum Kind: Sendable, Equatable {
        /// A reaction set (or withdrawn, `remove`) on the message `targetAuthorAccountId` sent at `targetTimestamp`.
        case reaction(emoji: String, remove: Bool, targetAuthorAccountId: String, targetTimestamp: UInt64)
        /// The author withdrew its message sent at `targetTimestamp`.
        case deleteForEveryone(targetTimestamp: UInt64)
        /// The author replaced the text of its message sent at `targetTimestamp` with `body`, which mentions `mentions`.
        case edit(targetTimestamp: UInt64, body: String, mentions: [Mention])
        /// A receipt (`delivered` or `read`) for this account's messages sent at `timestamps`.
        case receipt(kind: String, timestamps: [UInt64])
    }

    /// The account that acted.
    public let authorAccountId: String
    /// Its device.
    public let authorDeviceId: UInt32
    /// The acting message's timestamp.
    public let timestamp: UInt64
    /// The group it happened in (`nil`: a 1:1 conversation).
    public let groupId: Data?
    /// What was done.
    public let kind: Kind
}

extension AppliedAct.Kind {
    /// What a data message that acts on another one does; `nil` for any other message.
    init?(_ message: DataMessage) {
        if let reaction = message.reaction {
            self = .reaction(
                emoji: reaction.emoji, remove: reaction.remove, targetAuthorAccountId: reaction.targetAuthorAccountId,
                targetTimestamp: reaction.targetTimestamp)
        } else if let target = message.editTarget {
            self = .edit(targetTimestamp: target, body: message.body ?? "", mentions: message.mentions)
        } else if let target = message.deleteTarget {
            self = .deleteForEveryone(targetTimestamp: target)
        } else {
            return nil
        }
    }
}
