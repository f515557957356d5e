import Foundation
import ParleyAPI
import ParleyProtocol

/// Makes prekeys, stores their private halves and describes their public halves for upload, in one transaction.
enum PreKeyGenerator {
    /// One-time keys of each kind per batch.
    static let batchSize = 100

    /// Generates what `request` asks for, stores it through `store` inside `db`, and returns the upload.
    static func generate(
        _ db: StorageTransaction, store: DatabaseProtocolStore, oneTime: Bool, signed: Bool, lastResort: Bool,
        now: UInt64
    ) throws -> UploadKeysRequest {
        let context = TransactionContext(db)
        let identity = try store.identityKeyPair(context: context).privateKey
        let base64 = { (bytes: Data) in bytes.base64EncodedString() }
        var counters = try LocalAccountTable.nextPreKeyIds(db)

        var signedEntity: SignedPreKeyEntity?
        if signed {
            let record = SignedPreKeyRecord.generate(id: counters.1, timestamp: now, signedBy: identity)
            try store.storeSignedPreKey(record, id: record.id, context: context)
            signedEntity = SignedPreKeyEntity(
                keyId: record.id, publicKey: base64(try record.publicKey().serialize()), signature: base64(record.signature))
            counters.1 = Self.next(counters.1)
        }
        var preKeys: [PreKeyEntity] = []
        var kemKeys: [SignedPreKeyEntity] = []
        if oneTime {
            for _ in 0..<batchSize {
                let preKey = PreKeyRecord.generate(id: counters.0)
                try store.storePreKey(preKey, id: preKey.id, context: context)
                preKeys.append(PreKeyEntity(keyId: preKey.id, publicKey: base64(try preKey.publicKey().serialize())))
                counters.0 = Self.next(counters.0)
                let kem = KyberPreKeyRecord.generate(id: counters.2, timestamp: now, signedBy: identity)
                try store.storeKyberPreKey(kem, id: kem.id, lastResort: false, context: context)
                kemKeys.append(
                    SignedPreKeyEntity(keyId: kem.id, publicKey: base64(try kem.publicKey().serialize()), signature: base64(kem.signature)))
                counters.2 = Self.next(counters.2)
            }
        }
        var lastResortEntity: SignedPreKeyEntity?
        if lastResort {
            let kem = KyberPreKeyRecord.generate(id: counters.2, timestamp: now, signedBy: identity)
            try store.removeLastResortKyberPreKeys(in: db)
            try store.storeKyberPreKey(kem, id: kem.id, lastResort: true, context: context)
            lastResortEntity = SignedPreKeyEntity(
                keyId: kem.id, publicKey: base64(try kem.publicKey().serialize()), signature: base64(kem.signature))
            counters.2 = Self.next(counters.2)
        }
        try LocalAccountTable.setNextPreKeyIds(counters, db)
        return UploadKeysRequest(
            signedPreKey: signedEntity, preKeys: oneTime ? preKeys : nil,
            kemPreKeys: oneTime ? kemKeys : nil, lastResortKemPreKey: lastResortEntity)
    }

    /// Key ids stay in 1…0xFFFFFF (Signal's medium range), wrapping around.
    private static func next(_ id: UInt32) -> UInt32 { id >= 0xFF_FFFF ? 1 : id + 1 }
}
