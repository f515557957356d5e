import Foundation

/// What a server hands out so that someone can start a session with a device:
/// its identity key, signed prekey, optionally a one-time prekey and optionally a KEM prekey.
///
/// A bundle with a KEM prekey sets up a PQXDH (version 4) session; without, X3DH (version 3).
public struct PreKeyBundle: Sendable {
    /// The device's registration id.
    public let registrationId: UInt32
    /// The device id.
    public let deviceId: UInt32
    /// The one-time prekey id, when the bundle has one.
    public let preKeyId: UInt32?
    /// The one-time prekey, when the bundle has one.
    public let preKeyPublic: PublicKey?
    /// The signed prekey id.
    public let signedPreKeyId: UInt32
    /// The signed prekey.
    public let signedPreKeyPublic: PublicKey
    /// The identity key's signature over the serialized signed prekey.
    public var signedPreKeySignature: Data { Data(signedPreKeySignatureBytes) }
    let signedPreKeySignatureBytes: [UInt8]
    /// The device's identity key.
    public let identityKey: IdentityKey
    /// The KEM prekey id, when the bundle has one.
    public let kyberPreKeyId: UInt32?
    /// The KEM prekey, when the bundle has one.
    public let kyberPreKeyPublic: KEMPublicKey?
    /// The identity key's signature over the serialized KEM prekey, when the bundle has one.
    public var kyberPreKeySignature: Data? { kyberPreKeySignatureBytes.map { Data($0) } }
    let kyberPreKeySignatureBytes: [UInt8]?
    /// Whether a session from this bundle runs the SPQR (triple) ratchet (only with a KEM prekey). On by default,
    /// as libsignal today; off gives a pre-SPQR version-4 session (for peers whose KEM prekey is not for SPQR).
    public var spqr = true

    /// The general initializer: pass `nil` for the parts the bundle does not have.
    public init(
        registrationId: UInt32, deviceId: UInt32, oneTimePreKey: (id: UInt32, key: PublicKey)?,
        signedPreKeyId: UInt32, signedPreKey: PublicKey, signedPreKeySignature: some ContiguousBytes, identity: IdentityKey,
        kyberPreKey: (id: UInt32, key: KEMPublicKey, signature: Data)?
    ) {
        self.registrationId = registrationId
        self.deviceId = deviceId
        self.preKeyId = oneTimePreKey?.id
        self.preKeyPublic = oneTimePreKey?.key
        self.signedPreKeyId = signedPreKeyId
        self.signedPreKeyPublic = signedPreKey
        self.signedPreKeySignatureBytes = signedPreKeySignature.byteArray
        self.identityKey = identity
        self.kyberPreKeyId = kyberPreKey?.id
        self.kyberPreKeyPublic = kyberPreKey?.key
        self.kyberPreKeySignatureBytes = kyberPreKey.map { Array($0.signature) }
    }

    /// A PQXDH bundle with a one-time prekey.
    public init<S: ContiguousBytes, K: ContiguousBytes>(
        registrationId: UInt32, deviceId: UInt32, prekeyId: UInt32, prekey: PublicKey,
        signedPrekeyId: UInt32, signedPrekey: PublicKey, signedPrekeySignature: S, identity: IdentityKey,
        kyberPrekeyId: UInt32, kyberPrekey: KEMPublicKey, kyberPrekeySignature: K
    ) throws {
        self.init(
            registrationId: registrationId, deviceId: deviceId, oneTimePreKey: (prekeyId, prekey),
            signedPreKeyId: signedPrekeyId, signedPreKey: signedPrekey, signedPreKeySignature: signedPrekeySignature.byteArray,
            identity: identity, kyberPreKey: (kyberPrekeyId, kyberPrekey, Data(kyberPrekeySignature.byteArray)))
    }

    /// A PQXDH bundle without a one-time prekey.
    public init<S: ContiguousBytes, K: ContiguousBytes>(
        registrationId: UInt32, deviceId: UInt32,
        signedPrekeyId: UInt32, signedPrekey: PublicKey, signedPrekeySignature: S, identity: IdentityKey,
        kyberPrekeyId: UInt32, kyberPrekey: KEMPublicKey, kyberPrekeySignature: K
    ) throws {
        self.init(
            registrationId: registrationId, deviceId: deviceId, oneTimePreKey: nil,
            signedPreKeyId: signedPrekeyId, signedPreKey: signedPrekey, signedPreKeySignature: signedPrekeySignature.byteArray,
            identity: identity, kyberPreKey: (kyberPrekeyId, kyberPrekey, Data(kyberPrekeySignature.byteArray)))
    }

    /// An X3DH bundle (no KEM prekey) with a one-time prekey.
    public init<S: ContiguousBytes>(
        registrationId: UInt32, deviceId: UInt32, prekeyId: UInt32, prekey: PublicKey,
        signedPrekeyId: UInt32, signedPrekey: PublicKey, signedPrekeySignature: S, identity: IdentityKey
    ) throws {
        self.init(
            registrationId: registrationId, deviceId: deviceId, oneTimePreKey: (prekeyId, prekey),
            signedPreKeyId: signedPrekeyId, signedPreKey: signedPrekey, signedPreKeySignature: signedPrekeySignature.byteArray,
            identity: identity, kyberPreKey: nil)
    }

    /// An X3DH bundle (no KEM prekey) without a one-time prekey.
    public init<S: ContiguousBytes>(
        registrationId: UInt32, deviceId: UInt32,
        signedPrekeyId: UInt32, signedPrekey: PublicKey, signedPrekeySignature: S, identity: IdentityKey
    ) throws {
        self.init(
            registrationId: registrationId, deviceId: deviceId, oneTimePreKey: nil,
            signedPreKeyId: signedPrekeyId, signedPreKey: signedPrekey, signedPreKeySignature: signedPrekeySignature.byteArray,
            identity: identity, kyberPreKey: nil)
    }
}
