import ParleyProtocol

/// The key directory's rules, behind every front door (REST in ``KeyController``, gRPC in ``SignalE2EEKeyService``):
/// bounded uploads whose signatures verify against the account's identity key, prekey counts, and bundles whose
/// one-time keys are claimed atomically, rate-limited per caller.
struct KeyDirectory: Sendable {
    let store: any AccountStore & KeyStore
    let limits: ServerLimits
    let rateLimiter: RateLimiter

    /// Checks and stores `keys` for the caller's device: all or nothing. Rate-limited per account, and refused when the
    /// device would hold more than ``ServerLimits/storedKeysPerKind`` one-time keys of a kind.
    func upload(_ keys: UploadedKeys, by caller: AuthenticatedDevice) async throws {
        guard keys.preKeys.count <= limits.keysPerUpload, keys.kemPreKeys.count <= limits.keysPerUpload else {
            throw ServerError.badRequest("at most \(limits.keysPerUpload) keys of each kind per upload")
        }
        try rateLimiter.take("keys", accountId: caller.account.id, policy: limits.rateLimits.keyUpload)
        if !keys.preKeys.isEmpty || !keys.kemPreKeys.isEmpty {
            // Checked before the store (two uploads at once may pass it together: the bound is approximate by at most
            // one upload per concurrent request).
            let held = try await store.preKeyCounts(accountId: caller.account.id, deviceId: caller.device.deviceId)
            guard held.oneTime + keys.preKeys.count <= limits.storedKeysPerKind,
                held.kem + keys.kemPreKeys.count <= limits.storedKeysPerKind
            else {
                throw ServerError.badRequest(
                    "this device holds \(held.oneTime) one-time and \(held.kem) KEM keys; at most \(limits.storedKeysPerKind) of each")
            }
        }
        guard let identity = try? PublicKey(caller.account.identityKey) else { throw ServerError.internalFailure("stored identity key") }
        var upload = KeyUpload()
        upload.signedPreKey = try keys.signedPreKey.map { try KeyValidation.signedPreKey($0, identity: identity) }
        upload.preKeys = try keys.preKeys.map(KeyValidation.preKey)
        upload.kemPreKeys = try keys.kemPreKeys.map { try KeyValidation.kemPreKey($0, identity: identity, what: "kemPreKeys") }
        upload.lastResortKemPreKey = try keys.lastResortKemPreKey.map {
            try KeyValidation.kemPreKey($0, identity: identity, what: "lastResortKemPreKey")
        }
        if let lastResort = upload.lastResortKemPreKey, upload.kemPreKeys.contains(where: { $0.keyId == lastResort.keyId }) {
            throw ServerError.badRequest("KEM prekey id \(lastResort.keyId) is both one-time and last resort")
        }
        do {
            try await store.storeKeys(upload, accountId: caller.account.id, deviceId: caller.device.deviceId)
        } catch ServerStoreError.kemKeyIdInUse(let id) {
            throw ServerError.badRequest("KEM prekey id \(id) is already used by the other kind of KEM prekey")
        }
    }

    /// One-time prekeys and one-time KEM prekeys the caller's device has left.
    func counts(of caller: AuthenticatedDevice) async throws -> (oneTime: Int, kem: Int) {
        try await store.preKeyCounts(accountId: caller.account.id, deviceId: caller.device.deviceId)
    }

    /// The account `accountId` (case-insensitive) and bundles for `deviceIds` (all devices when `nil`), their
    /// one-time keys claimed; a 404 when the account or every asked-for device has none. Each call may use up another
    /// account's one-time keys, so it is rate-limited: per caller for a device, and — for a caller showing the account's
    /// unidentified access key instead of credentials (a sealed sender about to send, who would otherwise tell the
    /// server whom it writes to) — per client address and per account asked for. Without credentials an unknown account
    /// is a 401 like a wrong key: the route says nothing about who exists.
    func bundles(accountId: String, deviceIds: [UInt32]?, for requester: SendAuthorization) async throws
        -> (account: StoredAccount, bundles: [ClaimedBundle])
    {
        switch requester {
        case .device(let caller):
            try rateLimiter.take("bundle", accountId: caller.account.id, policy: limits.rateLimits.bundleFetch)
        case .unidentifiedAccess(_, let clientAddress):
            try rateLimiter.take("bundle-unidentified", address: clientAddress, policy: limits.rateLimits.unidentifiedBundleFetchPerAddress)
        }
        let found = accountId.utf8.count <= 64 ? try await store.account(id: accountId.lowercased()) : nil
        if case .unidentifiedAccess(let key, let clientAddress) = requester {
            // The registered key only: an account open to sealed sends from anyone is not open to having its one-time
            // keys drained by anyone.
            guard let found, let expected = found.unidentifiedAccessKey, UnidentifiedAccessKey.matches(expected, key) else {
                throw ServerError.unauthorized
            }
            // Per account and address, so one contact emptying it turns away only itself; a larger per-account backstop.
            try rateLimiter.take(
                "bundle-unidentified", recipient: found.id, from: clientAddress,
                perAddress: limits.rateLimits.unidentifiedBundleFetchPerAccountPerAddress,
                overall: limits.rateLimits.unidentifiedBundleFetchPerAccount)
        }
        guard let account = found else { throw ServerError.notFound("no account \(accountId)") }
        let claimed = try await store.claimBundles(accountId: account.id, deviceIds: deviceIds)
        guard !claimed.isEmpty else { throw ServerError.notFound("no device with published keys") }
        return (account, claimed)
    }
}
