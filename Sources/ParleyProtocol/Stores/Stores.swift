import Foundation

/// Which way a message goes when an identity's trust is checked.
public enum Direction: Sendable {
    /// We are about to send to the identity.
    case sending
    /// We received from the identity.
    case receiving
}

/// What saving an identity did.
public enum IdentityChange: Sendable, Equatable {
    /// The identity was new, or the same as the stored one.
    case newOrUnchanged
    /// A different identity was stored before and has been replaced.
    case replacedExisting
}

/// This device's identity and the identities it trusts for others.
public protocol IdentityKeyStore: AnyObject {
    /// This device's identity key pair.
    func identityKeyPair(context: StoreContext) throws -> IdentityKeyPair
    /// This device's registration id.
    func localRegistrationId(context: StoreContext) throws -> UInt32
    /// Records `identity` for `address`.
    func saveIdentity(_ identity: IdentityKey, for address: ProtocolAddress, context: StoreContext) throws -> IdentityChange
    /// Whether `identity` may be used for `address` in `direction`.
    func isTrustedIdentity(_ identity: IdentityKey, for address: ProtocolAddress, direction: Direction, context: StoreContext) throws
        -> Bool
    /// The identity recorded for `address`, if any.
    func identity(for address: ProtocolAddress, context: StoreContext) throws -> IdentityKey?
}

/// One-time prekeys.
public protocol PreKeyStore: AnyObject {
    /// The prekey `id`. Throws ``SignalError/invalidKeyIdentifier(_:)`` when there is none.
    func loadPreKey(id: UInt32, context: StoreContext) throws -> PreKeyRecord
    /// Stores a prekey under `id`.
    func storePreKey(_ record: PreKeyRecord, id: UInt32, context: StoreContext) throws
    /// Removes the prekey `id` (after a session used it).
    func removePreKey(id: UInt32, context: StoreContext) throws
}

/// Signed prekeys.
public protocol SignedPreKeyStore: AnyObject {
    /// The signed prekey `id`. Throws ``SignalError/invalidKeyIdentifier(_:)`` when there is none.
    func loadSignedPreKey(id: UInt32, context: StoreContext) throws -> SignedPreKeyRecord
    /// Stores a signed prekey under `id`.
    func storeSignedPreKey(_ record: SignedPreKeyRecord, id: UInt32, context: StoreContext) throws
}

/// KEM ("Kyber") prekeys.
public protocol KyberPreKeyStore: AnyObject {
    /// The KEM prekey `id`. Throws ``SignalError/invalidKeyIdentifier(_:)`` when there is none.
    func loadKyberPreKey(id: UInt32, context: StoreContext) throws -> KyberPreKeyRecord
    /// Stores a KEM prekey under `id`.
    func storeKyberPreKey(_ record: KyberPreKeyRecord, id: UInt32, context: StoreContext) throws
    /// Notes that a session was set up with KEM prekey `id`, signed prekey `signedPreKeyId` and the sender's
    /// `baseKey`. One-time KEM prekeys are deleted; for a last-resort one the store remembers the pair of ids with the
    /// base key and throws (libsignal uses ``SignalError/invalidMessage(_:)``) when the same triple comes again: that
    /// is a replayed pre-key message, and nothing of it is stored.
    func markKyberPreKeyUsed(id: UInt32, signedPreKeyId: UInt32, baseKey: PublicKey, context: StoreContext) throws
}

/// Sessions with remote devices.
public protocol SessionStore: AnyObject {
    /// The session record for `address`, or `nil`.
    func loadSession(for address: ProtocolAddress, context: StoreContext) throws -> SessionRecord?
    /// The records of those `addresses` that have sessions.
    func loadExistingSessions(for addresses: [ProtocolAddress], context: StoreContext) throws -> [SessionRecord]
    /// Stores the record for `address`.
    func storeSession(_ record: SessionRecord, for address: ProtocolAddress, context: StoreContext) throws
}

/// Sender-key state for groups, per sender device and distribution id.
public protocol SenderKeyStore: AnyObject {
    /// Stores the record for `sender` and `distributionId`.
    func storeSenderKey(from sender: ProtocolAddress, distributionId: UUID, record: SenderKeyRecord, context: StoreContext) throws
    /// The record for `sender` and `distributionId`, or `nil`.
    func loadSenderKey(from sender: ProtocolAddress, distributionId: UUID, context: StoreContext) throws -> SenderKeyRecord?
}
