import Crypto
import Foundation
import Hummingbird
import ParleyAPI
import ParleyProtocol

/// Registration and device listing.
struct AccountController: Sendable {
    let store: any AccountStore & UsernameStore
    let hasher: CredentialHasher
    let limits: ServerLimits
    let rateLimiter: RateLimiter
    let deviceDirectory: DeviceDirectory
    /// Who may register.
    let registration: RegistrationMode
    /// The sealed-sender trust root, told to every new account.
    let sealedSender: SealedSenderSettings
    /// Whether plain account names are still taken.
    let plainAccountNames: PlainAccountNames

    func addRoutes(to routes: ServerRoutes) {
        routes.open.post(RouterPath(APIRoutes.accounts), use: register)
        routes.device.get(RouterPath(APIRoutes.whoami), use: whoami)
        routes.device.get(RouterPath(APIRoutes.lookup(username: "{username}")), use: lookup)
        routes.device.get(RouterPath(APIRoutes.account("{id}")), use: account)
        routes.device.get(RouterPath(APIRoutes.devices), use: listDevices)
        routes.device.put(RouterPath(APIRoutes.accountAttributes), use: setAttributes)
    }

    @Sendable func register(_ request: Request, context: ParleyRequestContext) async throws -> Response {
        try rateLimiter.take("registration", address: context.clientAddress, policy: limits.rateLimits.registrationPerAddress)
        let body = try await JSONCoding.decode(RegisterAccountRequest.self, from: request, limit: limits.smallBodyBytes)
        // Without a name the account goes by a username (`nickname.NN`) the client confirms next, as a hash.
        let username = body.username
        if let username {
            guard plainAccountNames == .allowed else {
                throw ServerError.badRequest(
                    "this server takes no plain account names: register without one and take a username (parley register --nickname NICKNAME)"
                )
            }
            guard (3...32).contains(username.utf8.count), username.isASCIIToken else {
                throw ServerError.badRequest("username must be 3–32 letters, digits, '.', '_' or '-'")
            }
            // A name shaped like a username (`nickname.NN`) would let its holder answer for a username not yet taken: a
            // client looks a username up by its hash first and by a registered name only after.
            guard (try? Username(username)) == nil else {
                throw ServerError.badRequest(
                    "an account name cannot have a username's shape (nickname.NN): take a username after registering instead")
            }
        }
        let identityKey = try KeyValidation.bytes(body.identityKey, field: "identityKey")
        guard (try? IdentityKey(bytes: identityKey)) != nil else {
            throw ServerError.badRequest("identityKey is not a 33-byte Curve25519 key")
        }
        let password = try Credentials.validate(password: body.password, registrationId: body.registrationId, deviceName: body.deviceName)
        if let token = body.inviteToken, token.unicodeScalars.count > 128 {
            throw ServerError.badRequest("inviteToken must be at most 128 characters")
        }
        var inviteHash: [UInt8]?
        switch registration {
        case .open:
            break
        case .closed:
            throw ServerError.forbidden("registration is closed on this server")
        case .token:
            guard let token = body.inviteToken, !token.isEmpty else {
                throw ServerError.forbidden("registration on this server needs an invite from its operator")
            }
            inviteHash = Array(SHA256.hash(data: Data(token.utf8)))
        }

        let accountId = UUID().uuidString.lowercased()
        let device = StoredDevice(
            accountId: accountId, deviceId: 1, registrationId: body.registrationId, name: body.deviceName,
            passwordHash: hasher.hash(password), created: ServerClock.milliseconds())
        let account = StoredAccount(
            id: accountId, username: username, identityKey: identityKey,
            unidentifiedAccessKey: try body.unidentifiedAccessKey.map(Self.accessKey),
            unrestrictedUnidentifiedAccess: body.unrestrictedUnidentifiedAccess ?? false)
        switch try await store.createAccount(account, firstDevice: device, consumingInvite: inviteHash, now: ServerClock.milliseconds()) {
        case .created:
            break
        case .usernameTaken:
            throw ServerError.conflict(code: "username_taken", message: "the username \(username ?? "") is taken")
        case .inviteRefused:
            throw ServerError.forbidden("the invite is unknown, used up or expired")
        }
        return try JSONCoding.response(
            RegisterAccountResponse(
                accountId: accountId, deviceId: 1, sealedSenderTrustRoot: sealedSender.trustRoot.serialize().base64EncodedString()),
            status: .created)
    }

    /// `GET /v1/accounts/whoami`: the calling account's id, plain name, username hash and link handle, and whether the
    /// server asks it to give its plain name up for a username.
    @Sendable func whoami(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let account = context.device.account
        let username = try await store.usernameHash(accountId: account.id)
        return try JSONCoding.response(
            AccountIdentityResponse(
                uuid: account.id, accountName: account.username, usernameHash: username.map { Base64URL.encode($0.hash) },
                usernameLinkHandle: username?.linkHandle, plainAccountNames: plainAccountNames.rawValue))
    }

    @Sendable func lookup(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        let username = try context.pathParameter("username")
        // Lookups reveal who is registered: bounded per caller like bundle fetches.
        try rateLimiter.take("lookup", accountId: caller.account.id, policy: limits.rateLimits.bundleFetch)
        guard username.count <= 64, let account = try await store.account(username: username) else {
            throw ServerError.notFound("no account \(username)")
        }
        return try JSONCoding.response(AccountLookupResponse(accountId: account.id, username: account.username))
    }

    /// `GET /v1/accounts/{id}`: the plain name of an account id (which a device learns from a message's sender); `null`
    /// for an account without one (it goes by a username the server never reads: its messages carry it).
    @Sendable func account(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let caller = context.device
        let id = try context.pathParameter("id")
        try rateLimiter.take("lookup", accountId: caller.account.id, policy: limits.rateLimits.bundleFetch)
        guard UUID(uuidString: id) != nil, let account = try await store.account(id: id.lowercased()) else {
            throw ServerError.notFound("no account \(id)")
        }
        return try JSONCoding.response(AccountLookupResponse(accountId: account.id, username: account.username))
    }

    /// `PUT /v1/accounts/attributes`: the account's unidentified access key (from its current profile key) and whether
    /// anyone may send to it sealed.
    @Sendable func setAttributes(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let body = try await JSONCoding.decode(AccountAttributesRequest.self, from: request, limit: limits.smallBodyBytes)
        let key = try body.unidentifiedAccessKey.map(Self.accessKey)
        guard
            try await store.setUnidentifiedAccess(
                accountId: context.device.account.id, key: key, unrestricted: body.unrestrictedUnidentifiedAccess)
        else { throw ServerError.notFound("the account is gone") }
        return Response(status: .noContent)
    }

    /// A 16-byte unidentified access key from base64, or 400.
    private static func accessKey(_ base64: String) throws -> [UInt8] {
        guard let key = UnidentifiedAccessKey.decode(base64) else {
            throw ServerError.badRequest("unidentifiedAccessKey must be 16 bytes, base64")
        }
        return key
    }

    @Sendable func listDevices(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let devices = try await deviceDirectory.devices(of: context.device).map {
            DeviceInfo(deviceId: $0.deviceId, name: $0.name, registrationId: $0.registrationId, created: $0.created)
        }
        return try JSONCoding.response(DeviceListResponse(devices: devices))
    }
}
