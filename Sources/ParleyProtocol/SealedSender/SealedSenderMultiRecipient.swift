import Foundation

/// Seals `content` once for every device in `recipients` (sealed sender version 2): the content is encrypted once,
/// and each recipient account gets 48 bytes of key material bound to its identity key. Devices of one account share
/// that material; the server splits the result (``SealedSenderMultiRecipientMessage``) and delivers to each device
/// what ``UnidentifiedSenderMessageContent/init(message:identityStore:context:)`` opens.
///
/// Every recipient's name must be a service id and every device must have a session here (its registration id goes
/// into the message). `excludedRecipients` are named without being sent to.
/// - Throws: ``SignalError/invalidArgument(_:)`` for a recipient that is not a service id or a device id outside
///   1…127; ``SignalError/sessionNotFound(_:)`` for a device without a session or an account without an identity;
///   ``SignalError/invalidRegistrationId(address:message:)`` when a session's registration id exceeds 14 bits.
public func sealedSenderMultiRecipientEncrypt(
    _ content: UnidentifiedSenderMessageContent, for recipients: [ProtocolAddress], excludedRecipients: [ServiceId] = [],
    identityStore: IdentityKeyStore, sessionStore: SessionStore, context: StoreContext
) throws -> Data {
    let sessions = try sessionStore.loadExistingSessions(for: recipients, context: context)
    guard sessions.count == recipients.count else {
        throw SignalError.sessionNotFound("\(recipients.count - sessions.count) of the recipients have no session")
    }
    let ourIdentity = try identityStore.identityKeyPair(context: context)
    let m = SecureRandom.bytes(SealedSenderV2.messageKeyLength)
    let keys = try SealedSenderV2.DerivedKeys(m: m)
    let ephemeralPublic = keys.ephemeral.publicKey

    // Devices grouped by account, in the order the accounts first appear.
    var accounts: [(name: String, devices: [(address: ProtocolAddress, session: SessionRecord)])] = []
    var index: [String: Int] = [:]
    for (address, session) in zip(recipients, sessions) {
        if let position = index[address.name] {
            accounts[position].devices.append((address, session))
        } else {
            index[address.name] = accounts.count
            accounts.append((address.name, [(address, session)]))
        }
    }

    let totalCount = UInt32(accounts.count + excludedRecipients.count)
    var message = [SealedSenderV2.sentServiceIdVersion] + Varint.encode(totalCount)
    for account in accounts {
        guard let serviceId = try? ServiceId.parseFrom(serviceIdString: account.name) else {
            throw SignalError.invalidArgument("multi-recipient sealed sender needs recipients' service ids, not \(account.name)")
        }
        let first = account.devices[0].address
        guard let theirIdentity = try identityStore.identity(for: first, context: context) else {
            throw SignalError.sessionNotFound("no identity known for \(first)")
        }
        message += serviceId.fixedWidth
        for (position, device) in account.devices.enumerated() {
            guard (1...127).contains(device.address.deviceId) else {
                throw SignalError.invalidArgument("device id \(device.address.deviceId) of \(device.address) is outside 1…127")
            }
            let registrationId: UInt32
            do { registrationId = try device.session.remoteRegistrationId() } catch {
                throw SignalError.sessionNotFound("the session with \(device.address) has no current state")
            }
            guard registrationId & 0x3FFF == registrationId else {
                throw SignalError.invalidRegistrationId(
                    address: device.address, message: "registration id \(registrationId) exceeds 14 bits")
            }
            let field = UInt16(registrationId) | (position < account.devices.count - 1 ? 0x8000 : 0)
            message += [UInt8(device.address.deviceId), UInt8(field >> 8), UInt8(field & 0xFF)]
        }
        let c = try SealedSenderV2.applyAgreementXOR(
            ours: keys.ephemeral, ourPublic: ephemeralPublic, theirs: theirIdentity.publicKey, sending: true, input: m)
        message += c
        message += try SealedSenderV2.authenticationTag(
            ours: ourIdentity, theirs: theirIdentity, sending: true, ephemeralPublic: ephemeralPublic, encryptedMessageKey: c)
    }
    for excluded in excludedRecipients {
        message += excluded.fixedWidth + [0]
    }
    message += ephemeralPublic.rawKey
    message += try SealedSenderV2.encryptContent(Array(content.serialize()), key: keys.contentKey)
    return Data(message)
}

/// The message the one recipient of a multi-recipient `message` receives (what a server delivers; libsignal keeps
/// this for tests). Use ``SealedSenderMultiRecipientMessage`` for a message with several recipients.
/// - Throws: the parsing errors of ``SealedSenderMultiRecipientMessage``, and
///   ``SignalError/invalidArgument(_:)`` unless the message has exactly one recipient.
public func sealedSenderMultiRecipientMessageForSingleRecipient(_ message: Data) throws -> Data {
    let parsed = try SealedSenderMultiRecipientMessage(bytes: message)
    guard parsed.recipients.count == 1 else {
        throw SignalError.invalidArgument("the message has \(parsed.recipients.count) recipients, not one")
    }
    return parsed.messageForRecipient(parsed.recipients[0].recipient)
}
