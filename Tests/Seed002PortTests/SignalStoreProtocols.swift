import Foundation
import ParleyProtocol

// MARK: - Store Context

struct NovaStoreContext: StoreContext {
    let userId: String
}

// MARK: - Keychain-backed Signal Protocol Store

final class KeychainSignalProtocolStore: IdentityKeyStore, PreKeyStore,
    SignedPreKeyStore, KyberPreKeyStore,
    SessionStore, SenderKeyStore
{

    // MARK: - Properties

    private let keychain: KeychainService
    private let userId: String

    private var identityKeyPairCache: IdentityKeyPair?
    private var registrationIdCache: UInt32?

    // Keychain key prefixes
    private let identityKeyKey = "signal.identity.keypair"
    private let registrationIdKey = "signal.registration.id"
    private let preKeyPrefix = "signal.prekey."
    private let signedPreKeyPrefix = "signal.signedprekey."
    private let kyberPreKeyPrefix = "signal.kyberprekey."
    private let sessionPrefix = "signal.session."
    private let identityPrefix = "signal.peeridentity."
    private let senderKeyPrefix = "signal.senderkey."

    // MARK: - Initialization

    init(keychain: KeychainService = .shared, userId: String) {
        self.keychain = keychain
        self.userId = userId
        loadCachedIdentity()
    }

    // MARK: - IdentityKeyStore

    func identityKeyPair(context: StoreContext) throws -> IdentityKeyPair {
        if let cached = identityKeyPairCache {
            return cached
        }

        // Try to load from keychain
        if let data = keychain.getData(identityKeyKey),
            let keypair = try? IdentityKeyPair(bytes: data)
        {
            identityKeyPairCache = keypair
            return keypair
        }

        // Generate new keypair
        let keypair = IdentityKeyPair.generate()
        identityKeyPairCache = keypair

        // Save to keychain
        let data = Data(keypair.serialize())
        keychain.save(data, for: identityKeyKey)

        return keypair
    }

    func localRegistrationId(context: StoreContext) throws -> UInt32 {
        if let cached = registrationIdCache {
            return cached
        }

        // Try to load from keychain
        if let idString = keychain.get(registrationIdKey),
            let id = UInt32(idString)
        {
            registrationIdCache = id
            return id
        }

        // Generate new registration ID (14-bit)
        let id = UInt32.random(in: 1...0x3FFF)
        registrationIdCache = id
        keychain.save(String(id), for: registrationIdKey)

        return id
    }

    func saveIdentity(
        _ identity: IdentityKey,
        for address: ProtocolAddress,
        context: StoreContext
    ) throws -> IdentityChange {
        let key = identityPrefix + address.description
        let newData = Data(identity.serialize())

        // Check for existing identity
        if let existingData = keychain.getData(key) {
            if existingData == newData {
                return .newOrUnchanged
            }
            // Identity changed - potential MITM!
            keychain.save(newData, for: key)
            return .replacedExisting
        }

        // New identity (TOFU - Trust On First Use)
        keychain.save(newData, for: key)
        return .newOrUnchanged
    }

    func isTrustedIdentity(
        _ identity: IdentityKey,
        for address: ProtocolAddress,
        direction: Direction,
        context: StoreContext
    ) throws -> Bool {
        let key = identityPrefix + address.description

        guard let existingData = keychain.getData(key) else {
            // First contact - TOFU
            return true
        }

        let existingIdentity = try IdentityKey(bytes: existingData)
        return existingIdentity == identity
    }

    func identity(
        for address: ProtocolAddress,
        context: StoreContext
    ) throws -> IdentityKey? {
        let key = identityPrefix + address.description

        guard let data = keychain.getData(key) else {
            return nil
        }

        return try IdentityKey(bytes: data)
    }

    // MARK: - PreKeyStore

    func loadPreKey(id: UInt32, context: StoreContext) throws -> PreKeyRecord {
        let key = preKeyPrefix + String(id)

        guard let data = keychain.getData(key) else {
            throw SignalError.invalidKeyIdentifier("PreKey \(id) not found")
        }

        return try PreKeyRecord(bytes: data)
    }

    func storePreKey(_ record: PreKeyRecord, id: UInt32, context: StoreContext) throws {
        let key = preKeyPrefix + String(id)
        let data = Data(record.serialize())
        keychain.save(data, for: key)
    }

    func removePreKey(id: UInt32, context: StoreContext) throws {
        let key = preKeyPrefix + String(id)
        keychain.delete(key)
    }

    // MARK: - SignedPreKeyStore

    func loadSignedPreKey(id: UInt32, context: StoreContext) throws -> SignedPreKeyRecord {
        let key = signedPreKeyPrefix + String(id)

        guard let data = keychain.getData(key) else {
            throw SignalError.invalidKeyIdentifier("SignedPreKey \(id) not found")
        }

        return try SignedPreKeyRecord(bytes: data)
    }

    func storeSignedPreKey(_ record: SignedPreKeyRecord, id: UInt32, context: StoreContext) throws {
        let key = signedPreKeyPrefix + String(id)
        let data = Data(record.serialize())
        keychain.save(data, for: key)
    }

    // MARK: - KyberPreKeyStore (Post-Quantum)

    func loadKyberPreKey(id: UInt32, context: StoreContext) throws -> KyberPreKeyRecord {
        let key = kyberPreKeyPrefix + String(id)

        guard let data = keychain.getData(key) else {
            throw SignalError.invalidKeyIdentifier("KyberPreKey \(id) not found")
        }

        return try KyberPreKeyRecord(bytes: data)
    }

    func storeKyberPreKey(_ record: KyberPreKeyRecord, id: UInt32, context: StoreContext) throws {
        let key = kyberPreKeyPrefix + String(id)
        let data = Data(record.serialize())
        keychain.save(data, for: key)
    }

    func markKyberPreKeyUsed(
        id: UInt32,
        signedPreKeyId: UInt32,
        baseKey: PublicKey,
        context: StoreContext
    ) throws {
        // Mark as used to prevent replay attacks
        // In production: track in a separate store
    }

    // MARK: - SessionStore

    func loadSession(
        for address: ProtocolAddress,
        context: StoreContext
    ) throws -> SessionRecord? {
        let key = sessionPrefix + address.description

        guard let data = keychain.getData(key) else {
            return nil
        }

        return try SessionRecord(bytes: data)
    }

    func loadExistingSessions(
        for addresses: [ProtocolAddress],
        context: StoreContext
    ) throws -> [SessionRecord] {
        return try addresses.compactMap { address in
            try loadSession(for: address, context: context)
        }
    }

    func storeSession(
        _ record: SessionRecord,
        for address: ProtocolAddress,
        context: StoreContext
    ) throws {
        let key = sessionPrefix + address.description
        let data = Data(record.serialize())
        keychain.save(data, for: key)
    }

    // MARK: - SenderKeyStore (for Group Messaging)

    func storeSenderKey(
        from sender: ProtocolAddress,
        distributionId: UUID,
        record: SenderKeyRecord,
        context: StoreContext
    ) throws {
        let key = senderKeyPrefix + "\(sender.description).\(distributionId.uuidString)"
        let data = Data(record.serialize())
        keychain.save(data, for: key)
    }

    func loadSenderKey(
        from sender: ProtocolAddress,
        distributionId: UUID,
        context: StoreContext
    ) throws -> SenderKeyRecord? {
        let key = senderKeyPrefix + "\(sender.description).\(distributionId.uuidString)"

        guard let data = keychain.getData(key) else {
            return nil
        }

        return try SenderKeyRecord(bytes: data)
    }

    // MARK: - Private Helpers

    private func loadCachedIdentity() {
        if let data = keychain.getData(identityKeyKey),
            let keypair = try? IdentityKeyPair(bytes: data)
        {
            identityKeyPairCache = keypair
        }

        if let idString = keychain.get(registrationIdKey),
            let id = UInt32(idString)
        {
            registrationIdCache = id
        }
    }
}
