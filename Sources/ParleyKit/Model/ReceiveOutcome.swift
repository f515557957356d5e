import Foundation

/// What receiving one envelope or ephemeral event did, as ``ParleyClient/listen(onOutcome:)``,
/// ``ParleyClient/receive(attempt:)`` and ``ParleyClient/events()`` report it.
public enum ReceiveOutcome: Sendable, Equatable {
    /// A new message was stored with this local id.
    case stored(messageId: Int64)
    /// A copy of a message already stored (or a replayed ciphertext): nothing new.
    case duplicate
    /// Receipts or a sync transcript were applied.
    case applied
    /// Decryption failed; an undecryptable-message row records it.
    case undecryptable(reason: String)
    /// An edit, delete or reaction that breaks a rule (not the author, too late, deleted message): ignored.
    case rejected(reason: String)
    /// An edit, delete or reaction for a message that has not arrived yet, or could not be decrypted yet (its
    /// sender was asked to send it again): kept, and applied when the message comes (for up to a day) —
    /// ``ParleyClient/listen(onOutcome:)`` and ``ParleyClient/receiveOnce()`` then report a peer's as ``acted(_:)``.
    case held
    /// The sender (its account and device) started or stopped typing: in the group `groupId` (a member's, in a
    /// group this account is in), or in the 1:1 chat when it is `nil`.
    case typing(accountId: String, deviceId: UInt32, action: TypingAction, groupId: Data?)
    /// A reaction, an edit, a delete for everyone or a receipt was applied.
    case acted(AppliedAct)
}
