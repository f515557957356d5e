import Foundation
import ParleyAPI
import ParleyProtocol

/// The rules of usernames the server never reads: hashes are checked to be 32-byte ristretto255 points, a confirmation
/// needs a proof of knowing what the hash opens to (so no one confirms a hash they cannot open, such as another's), a reservation lapses after ``reservationLifetime``, and a link is
/// an opaque encrypted value of bounded size under a random handle. Front doors parse and present; this decides.
struct UsernameService: Sendable {
    let store: any UsernameStore & AccountStore & BackupStore
    let rateLimiter: RateLimiter
    let limits: ServerLimits

    /// How long a reservation holds a hash for its account before another may take it.
    static let reservationLifetime: UInt64 = 5 * 60 * 1000

    /// Reserves the first free hash of `request`'s candidates for `accountId`.
    /// - Throws: 400 for a malformed or empty list or a hash that is no point, 409 `username_not_available` when every
    ///   candidate is taken, 429 past the account's budget.
    func reserve(_ request: ReserveUsernameHashRequest, accountId: String, now: UInt64) async throws -> ReserveUsernameHashResponse {
        let count = request.usernameHashes.count
        guard (1...ReserveUsernameHashRequest.maximumCandidates).contains(count) else {
            throw ServerError.badRequest("usernameHashes holds 1 to \(ReserveUsernameHashRequest.maximumCandidates) hashes, not \(count)")
        }
        let candidates = try request.usernameHashes.map { try Self.hash($0, field: "usernameHashes") }
        try rateLimiter.take("username", accountId: accountId, policy: limits.rateLimits.username)
        guard
            let reserved = try await store.reserveUsernameHash(
                accountId: accountId, candidates: candidates, until: now + Self.reservationLifetime, now: now)
        else { throw ServerError.conflict(code: "username_not_available", message: "every candidate username is taken") }
        return ReserveUsernameHashResponse(usernameHash: Base64URL.encode(reserved))
    }

    /// Confirms `request`'s hash as `accountId`'s username once its proof verifies, and in the same transaction stores
    /// its encrypted username as the account's link when it carries one (else a link to an earlier username goes).
    /// - Throws: 400 for malformed fields, 422 `invalid_proof` when the proof does not prove the hash, 409
    ///   `reservation_not_found` when the account does not hold the hash reserved, 429 past the account's budget.
    func confirm(_ request: ConfirmUsernameHashRequest, accountId: String, now: UInt64) async throws -> UsernameHashResponse {
        let hash = try Self.hash(request.usernameHash, field: "usernameHash")
        // 32 bytes a response: a proof is a challenge and three responses.
        guard let proof = Base64URL.decode(request.zkProof, maximumLength: 256), proof.count == 128 else {
            throw ServerError.badRequest("zkProof is 128 bytes, unpadded base64url")
        }
        let encrypted = try request.encryptedUsername.map { try Self.encryptedValue($0, field: "encryptedUsername") }
        try rateLimiter.take("username", accountId: accountId, policy: limits.rateLimits.username)
        do {
            try Username.verify(proof: Data(proof), forHash: Data(hash))
        } catch {
            throw ServerError.clientError(.unprocessableContent, "the proof does not prove this username hash")
        }
        let link = encrypted.map { (handle: Self.newHandle(), encryptedValue: $0) }
        guard try await store.confirmUsernameHash(accountId: accountId, hash: hash, now: now, link: link) else {
            throw ServerError.conflict(
                code: "reservation_not_found", message: "this account holds no reservation of the hash (reservations last five minutes)")
        }
        // The account goes by its username now: its plain name goes, unless its PIN backup is still restored by it.
        try await PlainNameRetirement(store: store).retireIfUnneeded(accountId: accountId)
        return UsernameHashResponse(usernameHash: Base64URL.encode(hash), usernameLinkHandle: link?.handle)
    }

    /// The account's own username hash and link handle.
    /// - Throws: 404 when it has no username.
    func current(accountId: String) async throws -> UsernameHashResponse {
        guard let (hash, handle) = try await store.usernameHash(accountId: accountId) else {
            throw ServerError.notFound("this account has no username")
        }
        return UsernameHashResponse(usernameHash: Base64URL.encode(hash), usernameLinkHandle: handle)
    }

    /// Removes the account's username and link.
    func delete(accountId: String) async throws { try await store.deleteUsernameHash(accountId: accountId) }

    /// The account whose username has the hash `text`, for a caller at `address`.
    /// - Throws: 400 for a malformed hash, 404 when no account has it, 429 past the address's budget (counted first).
    func lookup(_ text: String, address: String?) async throws -> AccountIdentifierResponse {
        try rateLimiter.take("username-lookup", address: address, policy: limits.rateLimits.usernameLookupPerAddress)
        let hash = try Self.hash(text, field: "usernameHash")
        guard let accountId = try await store.account(usernameHash: hash) else {
            throw ServerError.notFound("no account has this username")
        }
        return AccountIdentifierResponse(uuid: accountId)
    }

    /// Stores `request`'s encrypted username as `accountId`'s link.
    /// - Throws: 400 for a malformed value, 409 `username_not_set` when the account has no username, 429.
    func setLink(_ request: EncryptedUsername, accountId: String) async throws -> UsernameLinkHandle {
        let encrypted = try Self.encryptedValue(request.usernameLinkEncryptedValue, field: "usernameLinkEncryptedValue")
        try rateLimiter.take("username", accountId: accountId, policy: limits.rateLimits.username)
        guard
            let handle = try await store.setUsernameLink(
                accountId: accountId, encryptedValue: encrypted, keepHandle: request.keepLinkHandle ?? false, newHandle: Self.newHandle())
        else { throw ServerError.conflict(code: "username_not_set", message: "a username link needs a username first") }
        return UsernameLinkHandle(usernameLinkHandle: handle)
    }

    /// Removes the account's link.
    func deleteLink(accountId: String) async throws { try await store.deleteUsernameLink(accountId: accountId) }

    /// The encrypted username under link `handle`, for a caller at `address`.
    /// - Throws: 400 for a handle that is no UUID, 404 when no link has it, 429 past the address's budget.
    func link(handle: String, address: String?) async throws -> EncryptedUsername {
        try rateLimiter.take("username-lookup", address: address, policy: limits.rateLimits.usernameLookupPerAddress)
        guard let uuid = UUID(uuidString: handle) else { throw ServerError.badRequest("a username link handle is a UUID") }
        guard let value = try await store.usernameLink(handle: uuid.uuidString.lowercased()) else {
            throw ServerError.notFound("no username link has this handle")
        }
        return EncryptedUsername(usernameLinkEncryptedValue: Base64URL.encode(value), keepLinkHandle: nil)
    }

    /// A 32-byte username hash from unpadded base64url, checked to be a ristretto255 point.
    static func hash(_ text: String, field: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text, maximumLength: 64), bytes.count == 32, Username.isHash(bytes) else {
            throw ServerError.badRequest("\(field): a username hash is a 32-byte ristretto255 point, unpadded base64url")
        }
        return bytes
    }

    /// An encrypted username of at most ``EncryptedUsername/maximumBytes``, from unpadded base64url.
    static func encryptedValue(_ text: String, field: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text, maximumLength: 4 * EncryptedUsername.maximumBytes / 3 + 4), !bytes.isEmpty,
            bytes.count <= EncryptedUsername.maximumBytes
        else { throw ServerError.badRequest("\(field) is 1 to \(EncryptedUsername.maximumBytes) bytes, unpadded base64url") }
        return bytes
    }

    static func newHandle() -> String { UUID().uuidString.lowercased() }
}
