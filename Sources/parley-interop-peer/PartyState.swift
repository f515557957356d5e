import Crypto
import Foundation
import ParleyProtocol

/// The party created by `init`: its identity, stores and the commands that use them.
final class PartyState {
    static let commands = [
        "bundle", "process_bundle", "encrypt", "decrypt", "session_info",
        "create_skdm", "process_skdm", "group_encrypt", "group_decrypt",
    ]

    let name: String
    let deviceId: Int
    let store: InMemorySignalProtocolStore
    private let ownAddress: ProtocolAddress
    private let context = NullContext()

    init(_ request: PeerRequest) throws {
        name = try request.string("name")
        deviceId = try request.int("device_id")
        guard let device = Int32(exactly: deviceId) else { throw PeerFailure.badRequest("device_id out of range") }
        let identity: IdentityKeyPair
        if let privateBytes = try request.optionalBytes("identity_private_b64") {
            let privateKey = try PrivateKey(privateBytes)
            identity = IdentityKeyPair(publicKey: privateKey.publicKey, privateKey: privateKey)
        } else {
            identity = .generate()
        }
        let registrationId = try request.optionalUInt32("registration_id") ?? UInt32.random(in: 1...16380)
        store = InMemorySignalProtocolStore(identity: identity, registrationId: registrationId)
        ownAddress = try ProtocolAddress(name: name, deviceId: UInt32(bitPattern: device))
    }

    var description: [String: Any] {
        [
            "name": name, "device_id": deviceId,
            "registration_id": Int((try? store.localRegistrationId(context: context)) ?? 0),
            "identity_key_b64": b64((try? store.identityKeyPair(context: context))?.publicKey.serialize() ?? Data()),
        ]
    }

    func run(_ command: String, _ request: PeerRequest) throws -> [String: Any] {
        switch command {
        case "bundle": return try bundle(request)
        case "process_bundle": return try processBundle(request)
        case "encrypt": return try encrypt(request)
        case "decrypt": return try decrypt(request)
        case "session_info": return try sessionInfo(request)
        case "create_skdm": return try createSenderKeyDistribution(request)
        case "process_skdm": return try processSenderKeyDistribution(request)
        case "group_encrypt": return try groupEncryptCommand(request)
        case "group_decrypt": return try groupDecryptCommand(request)
        default: throw PeerFailure.unknownCommand(command)
        }
    }

    // MARK: 1:1 sessions

    private func bundle(_ request: PeerRequest) throws -> [String: Any] {
        let identity = try store.identityKeyPair(context: context)
        let timestamp = UInt64(try request.optionalInt("timestamp_ms") ?? 0)
        let signedId = try request.uint32("signed_prekey_id")
        let signed = SignedPreKeyRecord.generate(id: signedId, timestamp: timestamp, signedBy: identity.privateKey)
        try store.storeSignedPreKey(signed, id: signedId, context: context)
        var result: [String: Any] = [
            "registration_id": Int(try store.localRegistrationId(context: context)), "device_id": deviceId,
            "identity_key_b64": b64(identity.publicKey.serialize()), "signed_prekey_id": Int(signedId),
            "signed_prekey_public_b64": b64(try signed.publicKey().serialize()),
            "signed_prekey_signature_b64": b64(signed.signature),
            "prekey_id": NSNull(), "prekey_public_b64": NSNull(),
        ]
        if let preKeyId = try request.optionalUInt32("prekey_id") {
            let preKey = PreKeyRecord.generate(id: preKeyId)
            try store.storePreKey(preKey, id: preKeyId, context: context)
            result["prekey_id"] = Int(preKeyId)
            result["prekey_public_b64"] = b64(try preKey.publicKey().serialize())
        }
        let spqr = try request.bool("spqr")
        guard !spqr || request.has("kyber_prekey_id") else { throw PeerFailure.badRequest("spqr needs kyber_prekey_id") }
        if let kyberId = try request.optionalUInt32("kyber_prekey_id") {
            let typeName = try request.optionalString("kyber_key_type") ?? "mlkem1024"
            guard let type = KEMKeyType.allCases.first(where: { $0.name == typeName }) else {
                throw PeerFailure.badRequest("unknown kyber_key_type \(typeName)")
            }
            let kyber = KyberPreKeyRecord.generate(type: type, id: kyberId, timestamp: timestamp, signedBy: identity.privateKey, spqr: spqr)
            try store.storeKyberPreKey(kyber, id: kyberId, context: context)
            result["kyber_prekey_id"] = Int(kyberId)
            result["kyber_prekey_public_b64"] = b64(try kyber.publicKey().serialize())
            result["kyber_prekey_signature_b64"] = b64(kyber.signature)
            if spqr { result["spqr"] = true }
        }
        return ["bundle": result]
    }

    private func processBundle(_ request: PeerRequest) throws -> [String: Any] {
        let address = try request.address("address")
        let fields = try request.object("bundle")
        guard fields.has("prekey_id") == fields.has("prekey_public_b64") else {
            throw PeerFailure.badRequest("prekey_id and prekey_public_b64 go together")
        }
        let kyberFields = ["kyber_prekey_id", "kyber_prekey_public_b64", "kyber_prekey_signature_b64"].map(fields.has)
        guard kyberFields.allSatisfy({ $0 }) || kyberFields.allSatisfy({ !$0 }) else {
            throw PeerFailure.badRequest("the three kyber_prekey fields go together")
        }
        var oneTime: (id: UInt32, key: PublicKey)?
        if fields.has("prekey_id") {
            oneTime = (try fields.uint32("prekey_id"), try PublicKey(try fields.bytes("prekey_public_b64")))
        }
        var kyber: (id: UInt32, key: ParleyProtocol.KEMPublicKey, signature: Data)?
        if kyberFields[0] {
            kyber = (
                try fields.uint32("kyber_prekey_id"), try ParleyProtocol.KEMPublicKey(try fields.bytes("kyber_prekey_public_b64")),
                Data(try fields.bytes("kyber_prekey_signature_b64"))
            )
        }
        let spqr = try fields.bool("spqr")
        guard !spqr || kyberFields[0] else { throw PeerFailure.badRequest("an spqr bundle needs the three kyber_prekey fields") }
        var bundle = PreKeyBundle(
            registrationId: try fields.uint32("registration_id"), deviceId: UInt32(truncatingIfNeeded: try fields.int("device_id")),
            oneTimePreKey: oneTime, signedPreKeyId: try fields.uint32("signed_prekey_id"),
            signedPreKey: try PublicKey(try fields.bytes("signed_prekey_public_b64")),
            signedPreKeySignature: try fields.bytes("signed_prekey_signature_b64"),
            identity: try IdentityKey(bytes: try fields.bytes("identity_key_b64")), kyberPreKey: kyber)
        bundle.spqr = spqr
        try processPreKeyBundle(bundle, for: address, sessionStore: store, identityStore: store, context: context)
        return [:]
    }

    private func encrypt(_ request: PeerRequest) throws -> [String: Any] {
        let address = try request.address("address")
        let plaintext = try request.bytes("plaintext_b64")
        let message = try signalEncrypt(message: plaintext, for: address, sessionStore: store, identityStore: store, context: context)
        return ["type": message.messageType == .preKey ? "prekey" : "whisper", "ciphertext_b64": b64(message.serialize())]
    }

    private func decrypt(_ request: PeerRequest) throws -> [String: Any] {
        let address = try request.address("address")
        let type = try request.string("type")
        let ciphertext = try request.bytes("ciphertext_b64")
        let plaintext: Data
        switch type {
        case "prekey":
            plaintext = try signalDecryptPreKey(
                message: try PreKeySignalMessage(bytes: ciphertext), from: address, sessionStore: store,
                identityStore: store, preKeyStore: store, signedPreKeyStore: store, kyberPreKeyStore: store, context: context)
        case "whisper":
            plaintext = try signalDecrypt(
                message: try SignalMessage(bytes: ciphertext), from: address, sessionStore: store, identityStore: store, context: context)
        default:
            throw PeerFailure.badRequest("type must be prekey or whisper")
        }
        return ["plaintext_b64": b64(plaintext)]
    }

    private func sessionInfo(_ request: PeerRequest) throws -> [String: Any] {
        let address = try request.address("address")
        guard let record = try store.loadSession(for: address, context: context), record.hasCurrentState,
            let version = record.sessionVersion
        else { return ["exists": false] }
        return [
            "exists": true, "version": Int(version),
            "remote_registration_id": Int(try record.remoteRegistrationId()),
            "local_registration_id": Int(try record.localRegistrationId()),
            "has_unacknowledged_prekey": record.hasUnacknowledgedPreKeyMessage,
            "remote_identity_key_b64": b64(try record.remoteIdentityKey().serialize()),
            "spqr": record.usesSPQR,
        ].merging(record.spqrEpoch.map { ["spqr_epoch": Int($0)] } ?? [:]) { first, _ in first }
    }

    // MARK: Groups

    /// The interop protocol names groups by string; the library by UUID. Derive one from the other.
    private func distributionId(_ request: PeerRequest) throws -> UUID {
        var bytes = Array(SHA256.hash(data: Data(try request.string("group_id").utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    private func sender(_ request: PeerRequest) throws -> ProtocolAddress {
        request.has("sender") ? try request.address("sender") : ownAddress
    }

    private func createSenderKeyDistribution(_ request: PeerRequest) throws -> [String: Any] {
        // Signal's C library speaks the sender-key messages without a distribution id.
        let message = try SenderKeyDistributionMessage(
            from: try sender(request), distributionId: try distributionId(request), format: .protocolC, store: store, context: context)
        return ["skdm_b64": b64(message.serialize())]
    }

    private func processSenderKeyDistribution(_ request: PeerRequest) throws -> [String: Any] {
        let message = try SenderKeyDistributionMessage(bytes: try request.bytes("skdm_b64"))
        try processSenderKeyDistributionMessage(
            message, from: try request.address("sender"), distributionId: try distributionId(request), store: store, context: context)
        return [:]
    }

    private func groupEncryptCommand(_ request: PeerRequest) throws -> [String: Any] {
        let message = try groupEncrypt(
            try request.bytes("plaintext_b64"), from: try sender(request), distributionId: try distributionId(request),
            format: .protocolC, store: store, context: context)
        return ["ciphertext_b64": b64(message.serialize())]
    }

    private func groupDecryptCommand(_ request: PeerRequest) throws -> [String: Any] {
        let plaintext = try groupDecrypt(
            try request.bytes("ciphertext_b64"), from: try request.address("sender"),
            distributionId: try distributionId(request), store: store, context: context)
        return ["plaintext_b64": b64(plaintext)]
    }
}

/// Standard base64 of `bytes`.
func b64(_ bytes: some ContiguousBytes) -> String { bytes.withUnsafeBytes { Data($0) }.base64EncodedString() }
