import Foundation
import ParleyProtocol

// MARK: - SignalE2EEService

/// Production E2EE service using Signal Protocol (X3DH + Double Ratchet)
@Observable
final class SignalE2EEService {

    // MARK: - Properties

    private let store: KeychainSignalProtocolStore
    private let apiClient: SignalKeyServerClient
    private let deviceId: UInt32
    private let context: NovaStoreContext

    // MARK: - Initialization

    init(
        userId: String,
        apiClient: SignalKeyServerClient = DefaultSignalKeyServerClient()
    ) {
        self.store = KeychainSignalProtocolStore(userId: userId)
        self.apiClient = apiClient
        self.deviceId = Self.generateDeviceId()
        self.context = NovaStoreContext(userId: userId)
    }

    // MARK: - Public API

    /// Initialize Signal Protocol for this device
    /// Generates identity key, signed prekey, one-time prekeys, and Kyber keys
    @MainActor
    func initialize() async throws {
        // 1. Get or generate identity keypair
        let identityKeyPair = try store.identityKeyPair(context: context)
        let registrationId = try store.localRegistrationId(context: context)

        // 2. Generate Signed PreKey
        let signedPreKeyId: UInt32 = 1
        let signedPreKeyPair = PrivateKey.generate()
        let signedPreKeySignature = identityKeyPair.privateKey.generateSignature(
            message: signedPreKeyPair.publicKey.serialize()
        )

        let signedPreKey = try SignedPreKeyRecord(
            id: signedPreKeyId,
            timestamp: UInt64(Date().timeIntervalSince1970 * 1000),
            privateKey: signedPreKeyPair,
            signature: signedPreKeySignature
        )
        try store.storeSignedPreKey(signedPreKey, id: signedPreKeyId, context: context)

        // 3. Generate One-Time PreKeys (100 keys)
        var preKeyRecords: [PreKeyRecord] = []
        for i in 1...100 {
            let preKeyId = UInt32(i)
            let preKeyPair = PrivateKey.generate()
            let preKey = try PreKeyRecord(id: preKeyId, privateKey: preKeyPair)
            try store.storePreKey(preKey, id: preKeyId, context: context)
            preKeyRecords.append(preKey)
        }

        // 4. Generate Kyber PreKeys (Post-Quantum) - 10 keys
        var kyberPreKeyRecords: [KyberPreKeyRecord] = []
        for i in 1...10 {
            let kyberPreKeyId = UInt32(i)
            let kyberKeyPair = KEMKeyPair.generate()
            let kyberSignature = identityKeyPair.privateKey.generateSignature(
                message: kyberKeyPair.publicKey.serialize()
            )

            let kyberPreKey = try KyberPreKeyRecord(
                id: kyberPreKeyId,
                timestamp: UInt64(Date().timeIntervalSince1970 * 1000),
                keyPair: kyberKeyPair,
                signature: kyberSignature
            )
            try store.storeKyberPreKey(kyberPreKey, id: kyberPreKeyId, context: context)
            kyberPreKeyRecords.append(kyberPreKey)
        }

        // 5. Upload keys to server
        try await apiClient.uploadKeys(
            deviceId: deviceId,
            registrationId: registrationId,
            identityKey: identityKeyPair.publicKey,
            signedPreKey: signedPreKey,
            preKeys: preKeyRecords,
            kyberPreKeys: kyberPreKeyRecords
        )

        #if DEBUG
            print("[SignalE2EE] Initialized with \(preKeyRecords.count) OTKs, \(kyberPreKeyRecords.count) Kyber keys")
        #endif
    }

    /// Encrypt message for a specific user/device
    @MainActor
    func encrypt(
        message: String,
        for userId: String,
        deviceId: UInt32
    ) async throws -> SignalEncryptedMessage {
        let address = try ProtocolAddress(name: userId, deviceId: deviceId)

        // Check for existing session
        if try store.loadSession(for: address, context: context) == nil {
            // No session - establish via X3DH
            try await establishSession(with: address)
        }

        // Encrypt using Signal Protocol
        guard let messageData = message.data(using: .utf8) else {
            throw SignalE2EEError.encodingError
        }

        let ciphertext = try signalEncrypt(
            message: messageData,
            for: address,
            sessionStore: store,
            identityStore: store,
            context: context
        )

        return SignalEncryptedMessage(
            type: ciphertext.messageType,
            destinationUserId: userId,
            destinationDeviceId: deviceId,
            senderDeviceId: self.deviceId,
            content: Data(ciphertext.serialize())
        )
    }

    /// Decrypt received message
    @MainActor
    func decrypt(_ message: SignalEncryptedMessage, from senderId: String) throws -> String {
        let address = try ProtocolAddress(name: senderId, deviceId: message.senderDeviceId)

        let plaintext: Data

        switch message.type {
        case .preKey:
            // First message - includes X3DH prekey material
            let preKeyMessage = try PreKeySignalMessage(bytes: message.content)
            plaintext = try signalDecryptPreKey(
                message: preKeyMessage,
                from: address,
                sessionStore: store,
                identityStore: store,
                preKeyStore: store,
                signedPreKeyStore: store,
                kyberPreKeyStore: store,
                context: context
            )

        case .whisper:
            // Subsequent messages - Double Ratchet only
            let signalMessage = try SignalMessage(bytes: message.content)
            plaintext = try signalDecrypt(
                message: signalMessage,
                from: address,
                sessionStore: store,
                identityStore: store,
                context: context
            )

        default:
            throw SignalE2EEError.unknownMessageType
        }

        guard let decrypted = String(data: plaintext, encoding: .utf8) else {
            throw SignalE2EEError.decodingError
        }

        return decrypted
    }

    /// Encrypt for group (using Sender Keys)
    @MainActor
    func encryptForGroup(
        message: String,
        groupId: UUID,
        members: [ProtocolAddress]
    ) async throws -> SenderKeyDistributionMessage {
        let address = try ProtocolAddress(
            name: context.userId,
            deviceId: deviceId
        )

        // Create sender key distribution message
        let distributionMessage = try SenderKeyDistributionMessage(
            from: address,
            distributionId: groupId,
            store: store,
            context: context
        )

        return distributionMessage
    }

    // MARK: - Private Methods

    /// Establish session via X3DH key agreement
    private func establishSession(with address: ProtocolAddress) async throws {
        // Fetch PreKey Bundle from server
        let bundle = try await apiClient.getPreKeyBundle(
            userId: address.name,
            deviceId: address.deviceId
        )

        // Process bundle - performs X3DH
        try processPreKeyBundle(
            bundle,
            for: address,
            sessionStore: store,
            identityStore: store,
            context: context
        )

        #if DEBUG
            print("[SignalE2EE] Established session with \(address)")
        #endif
    }

    private static func generateDeviceId() -> UInt32 {
        // Use stable device ID from keychain or generate new
        let keychain = KeychainService.shared

        if let idString = keychain.get("signal.device.id"),
            let id = UInt32(idString)
        {
            return id
        }

        let id = UInt32.random(in: 1...UInt32.max)
        keychain.save(String(id), for: "signal.device.id")
        return id
    }
}

// MARK: - Data Models

struct SignalEncryptedMessage: Codable {
    let type: CiphertextMessage.MessageType
    let destinationUserId: String
    let destinationDeviceId: UInt32
    let senderDeviceId: UInt32
    let content: Data
}

enum SignalE2EEError: Error {
    case encodingError
    case decodingError
    case unknownMessageType
    case sessionNotFound
    case bundleFetchFailed
}

extension CiphertextMessage.MessageType: Codable {}
