import Foundation
import ParleyKit
import ParleyProtocol

/// signal-cli's methods about people, identities, devices and the PIN: `getUserStatus`, `listContacts`,
/// `listIdentities`, `trust`, `listDevices`, `removeDevice`, `addDevice`, `setPin`, `removePin`, `updateAccount` (the
/// username).
extension SignalCLIMethods {
    func userStatus(_ p: GetUserStatusParameters) async throws -> JSONValue {
        let recipients = p.people
        // Bounded before any is looked up.
        guard recipients.count <= Self.maximumRecipients else {
            throw JSONRPCError.userError("At most \(Self.maximumRecipients) recipients per call")
        }
        var statuses: [JSONValue] = []
        for recipient in recipients {
            var status: [String: JSONValue] = ["recipient": .string(recipient)]
            let name = try SignalCLIAddress.parse(recipient)
            if case .username(let username) = name {
                status["number"] = .orNull(SignalCLIAddress.number(forUsername: username))
                status["username"] = .string(username)
            }
            do {
                let accountId = try await SignalCLIAddress.resolve(recipient, with: client)
                status["uuid"] = .string(accountId)
                status["isRegistered"] = .bool(true)
            } catch ParleyError.server(let error) where error.status == 404 {
                status["uuid"] = .null
                status["isRegistered"] = .bool(false)
            }
            statuses.append(.object(status))
        }
        return .array(statuses)
    }

    func listContacts() throws -> JSONValue {
        .array(
            try client.conversations().filter { $0.groupId == nil }.map { contact in
                let address = SignalCLIAddress.Address(accountId: contact.accountId, username: contact.username)
                return .object([
                    "number": .orNull(address.number), "uuid": .string(contact.accountId),
                    "username": .orNull(contact.username), "name": .orNull(contact.username),
                    "isBlocked": .bool(false), "isArchived": .bool(false), "isHidden": .bool(false), "profileSharing": .bool(true),
                    "unregistered": .bool(false), "messageExpirationTime": .integer(Int64(contact.expireTimer)), "profile": .null,
                ])
            })
    }

    func listIdentities(_ p: ListIdentitiesParameters) throws -> JSONValue {
        let only = p.number
        return .array(
            try client.conversations().filter { $0.groupId == nil }.compactMap { contact in
                let address = SignalCLIAddress.Address(accountId: contact.accountId, username: contact.username)
                if let only, only != address.number, only != contact.accountId { return nil }
                guard let number = try? client.safetyNumber(with: contact.accountId) else { return nil }
                return .object([
                    "number": .orNull(address.number), "uuid": .string(contact.accountId),
                    "safetyNumber": .string(Self.digitGroups(number)), "scannableSafetyNumber": .null, "fingerprint": .null,
                    "trustLevel": .string("TRUSTED_UNVERIFIED"), "addedTimestamp": .integer(0),
                ])
            })
    }

    func trust(_ p: TrustParameters) async throws -> JSONValue {
        guard let recipient = p.recipient else { throw JSONRPCError.userError("Recipient parameter is missing") }
        let accountId = try await SignalCLIAddress.resolve(recipient, with: client)
        if let given = p.verifiedSafetyNumber {
            guard given.filter(\.isASCIIDigit) == (try client.safetyNumber(with: accountId)).filter(\.isASCIIDigit) else {
                throw JSONRPCError.userError("The given safety number does not match the one for \(recipient)")
            }
        } else if !p.trustAllKnownKeys {
            throw JSONRPCError.userError("You need to specify a safety number (verifiedSafetyNumber) or trustAllKnownKeys")
        }
        try client.acceptIdentity(of: accountId)
        return .object([:])
    }

    func listDevices() async throws -> JSONValue {
        .array(
            try await client.devices().map { device in
                .object([
                    "id": .integer(Int64(device.deviceId)), "name": .orNull(device.name),
                    "createdTimestamp": .integer(Int64(device.created)), "lastSeenTimestamp": .integer(Int64(device.created)),
                ])
            })
    }

    func removeDevice(_ p: RemoveDeviceParameters) async throws -> JSONValue {
        guard let id = p.deviceId, let deviceId = UInt32(exactly: id) else {
            throw JSONRPCError.userError("Device id parameter is missing")
        }
        try await client.removeDevice(deviceId)
        return .object([:])
    }

    func addDevice(_ p: AddDeviceParameters) async throws -> JSONValue {
        // signal-cli takes the new device's sgnl:// URI; Parley's new device shows a parley://link code (`parley link`).
        guard let uri = p.uri else { throw JSONRPCError.userError("Device link uri parameter is missing") }
        let invitation: LinkInvitation
        do { invitation = try LinkInvitation(code: uri) } catch {
            throw JSONRPCError.userError("Invalid device link uri: Parley links with the parley://link?… code `parley link` shows")
        }
        try await client.approveLink(invitation)
        return .object([:])
    }

    // MARK: The PIN

    /// signal-cli's registration-lock PIN; in Parley the PIN protects the identity backup on the server.
    func setPin(_ p: SetPinParameters) async throws -> JSONValue {
        guard let pin = p.pin, !pin.isEmpty else { throw JSONRPCError.userError("PIN parameter is missing") }
        try await client.createBackup(pin: pin)
        return .object([:])
    }

    func removePin() async throws -> JSONValue {
        try await client.deleteBackup()
        return .object([:])
    }

    // MARK: The username

    /// signal-cli's `updateAccount --username NAME` (a nickname, or a whole `nickname.NN`) and `--delete-username`.
    /// Answers `{username, usernameLink}` as signal-cli does (both `null` after a deletion).
    func updateAccount(_ p: UpdateAccountParameters) async throws -> JSONValue {
        if p.deleteUsername {
            guard p.username == nil else { throw JSONRPCError.userError("Give a username or deleteUsername, not both") }
            try await client.deleteUsername()
            return .object(["username": .null, "usernameLink": .null])
        }
        guard let requested = p.username, !requested.isEmpty else {
            throw JSONRPCError.userError("updateAccount needs username or deleteUsername")
        }
        let parts = requested.split(separator: ".", omittingEmptySubsequences: false)
        let nickname = parts.count > 1 ? parts.dropLast().joined(separator: ".") : requested
        let discriminator = parts.count > 1 ? String(parts.last ?? "") : nil
        let username: String
        do {
            username = try await client.setUsername(nickname: nickname, discriminator: discriminator).value
        } catch let error as SignalError {
            throw JSONRPCError.userError("Invalid username: \(error)")
        } catch ParleyError.invalidArgument(let detail) {
            throw JSONRPCError.userError(detail)
        }
        let link = try await client.usernameLink(reset: false)
        return .object(["username": .string(username), "usernameLink": .string(link.description)])
    }
}
