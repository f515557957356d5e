import Foundation
import ParleyProtocol
import Testing

/// Sealed sender through LibSignalClient's API: version 1 to three recipients, and version 2 — one encryption for
/// three accounts (one with two devices), split as a server splits it, each share opened by its device.
@Suite struct SealedSenderAPITests {
    let trustRoot = IdentityKeyPair.generate()
    let serverKey = IdentityKeyPair.generate()
    let now: UInt64 = 1_764_000_000_000

    func certificate(for device: Device) throws -> SenderCertificate {
        let server = try ServerCertificate(keyId: 1, publicKey: serverKey.publicKey, trustRoot: trustRoot.privateKey)
        return try SenderCertificate(
            sender: try SealedSenderAddress(e164: nil, aci: device.aci, deviceId: device.address.deviceId),
            publicKey: device.identity.publicKey, expiration: now + 86_400_000, signerCertificate: server,
            signerKey: serverKey.privateKey)
    }

    @Test func versionOneToThreeRecipients() throws {
        let alice = Device()
        let recipients = [Device(), Device(), Device()]
        let sender = try certificate(for: alice)
        #expect(sender.senderAci == alice.aci && sender.senderUuid == alice.aci.serviceIdString && sender.senderE164 == nil)
        #expect(sender.validate(trustRoot: trustRoot.publicKey, time: now))
        #expect(!sender.validate(trustRoot: trustRoot.publicKey, time: now + 86_400_001))
        #expect(sender.validate(trustRoots: [IdentityKeyPair.generate().publicKey, trustRoot.publicKey], time: now))
        #expect(!sender.validate(trustRoot: serverKey.publicKey, time: now))
        for recipient in recipients {
            try alice.startSession(with: recipient, bundle: try recipient.bundle())
            let inner = try alice.encrypt("sealed to \(recipient.aci.serviceIdString)", to: recipient)
            let content = try UnidentifiedSenderMessageContent(inner, from: sender, contentHint: .resendable, groupId: Data())
            let sealed = try sealedSenderEncrypt(content, for: recipient.address, identityStore: alice.store, context: alice.context)
            #expect(sealed.first == 0x11)

            let opened = try UnidentifiedSenderMessageContent(message: sealed, identityStore: recipient.store, context: recipient.context)
            #expect(opened.senderCertificate.validate(trustRoot: trustRoot.publicKey, time: now))
            #expect(opened.contentHint == .resendable && opened.groupId == nil && opened.messageType == .preKey)
            let from = ProtocolAddress(opened.senderCertificate.senderAci, deviceId: opened.senderCertificate.deviceId)
            #expect(
                try recipient.decrypt(opened.contents, type: opened.messageType, from: alice)
                    == "sealed to \(recipient.aci.serviceIdString)")
            #expect(from == alice.address)
        }
    }

    @Test func versionTwoOneEncryptionManyRecipients() throws {
        let alice = Device()
        let bob = Device()
        let bobLaptop = bob.linkedDevice(2)
        let carol = Device()
        let dave = Device()
        let eve = Aci(fromUUID: UUID())
        for device in [bob, bobLaptop, carol, dave] {
            try alice.startSession(with: device, bundle: try device.bundle())
            #expect(try device.decrypt(try alice.encrypt("hi", to: device), from: alice) == "hi")
        }
        // The group message: one sender-key encryption, its distribution message given to each member device.
        let group = UUID()
        let distribution = try SenderKeyDistributionMessage(
            from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        for device in [bob, bobLaptop, carol, dave] {
            try processSenderKeyDistributionMessage(
                try SenderKeyDistributionMessage(bytes: distribution.serialize()), from: alice.address, distributionId: group,
                store: device.store, context: device.context)
        }
        let groupMessage = try groupEncrypt(
            Data("to everyone".utf8), from: alice.address, distributionId: group,
            store: alice.store, context: alice.context)
        let content = try UnidentifiedSenderMessageContent(
            groupMessage, from: try certificate(for: alice), contentHint: .implicit, groupId: Data("group-1".utf8))
        let sent = try sealedSenderMultiRecipientEncrypt(
            content, for: [bob.address, bobLaptop.address, carol.address, dave.address], excludedRecipients: [eve],
            identityStore: alice.store, sessionStore: alice.store, context: alice.context)
        #expect(sent.first == 0x23)

        // The server's view: the recipients, their devices and registration ids, the excluded member; no sender.
        let parsed = try SealedSenderMultiRecipientMessage(bytes: sent)
        #expect(parsed.recipients.map(\.serviceId) == [bob.aci, carol.aci, dave.aci])
        #expect(parsed.excludedRecipients == [eve])
        let bobEntry = try #require(parsed.recipient(bob.aci))
        #expect(bobEntry.devices.map(\.deviceId) == [1, 2])
        #expect(
            bobEntry.devices.map { UInt32($0.registrationId) } == [
                try bob.store.localRegistrationId(context: bob.context),
                try bobLaptop.store.localRegistrationId(context: bobLaptop.context),
            ])
        #expect(!sent.contains(alice.identity.publicKey.serialize()), "the sender's identity is not in the clear")

        for (device, serviceId) in [(bob, bob.aci), (bobLaptop, bob.aci), (carol, carol.aci), (dave, dave.aci)] {
            let delivered = parsed.messageForRecipient(try #require(parsed.recipient(serviceId)))
            #expect(delivered.first == 0x22)
            let opened = try UnidentifiedSenderMessageContent(message: delivered, identityStore: device.store, context: device.context)
            #expect(opened.senderCertificate.validate(trustRoot: trustRoot.publicKey, time: now))
            #expect(opened.senderCertificate.senderAci == alice.aci && opened.messageType == .senderKey)
            #expect(opened.groupId == Data("group-1".utf8) && opened.contentHint == .implicit)
            let plaintext = try groupDecrypt(
                opened.contents, from: alice.address, distributionId: group, store: device.store, context: device.context)
            #expect(plaintext == Data("to everyone".utf8))
        }
        // Carol's share does not open for Dave.
        let carolsShare = parsed.messageForRecipient(try #require(parsed.recipient(carol.aci)))
        #expect(throws: SignalError.self) {
            try UnidentifiedSenderMessageContent(message: carolsShare, identityStore: dave.store, context: dave.context)
        }
    }

    @Test func versionTwoRefusesTamperingAndBadRecipients() throws {
        let alice = Device()
        let bob = Device()
        try alice.startSession(with: bob, bundle: try bob.bundle())
        let content = UnidentifiedSenderMessageContent(try alice.encrypt("x", to: bob), from: try certificate(for: alice))
        let sent = try sealedSenderMultiRecipientEncrypt(
            content, for: [bob.address], identityStore: alice.store, sessionStore: alice.store, context: alice.context)
        let delivered = try sealedSenderMultiRecipientMessageForSingleRecipient(sent)
        _ = try UnidentifiedSenderMessageContent(message: delivered, identityStore: bob.store, context: bob.context)
        for position in [1, 20, 40, 60, 90, delivered.count - 1] {
            var copy = delivered
            copy[position] ^= 0x01
            #expect(throws: SignalError.self, "byte \(position) flipped") {
                try UnidentifiedSenderMessageContent(message: copy, identityStore: bob.store, context: bob.context)
            }
        }
        #expect(throws: SignalError.self) {
            try UnidentifiedSenderMessageContent(message: delivered.prefix(90), identityStore: bob.store, context: bob.context)
        }
        // A certificate naming another identity than the one that sealed: the authentication tag refuses it.
        let mallory = Device()
        let forged = UnidentifiedSenderMessageContent(try alice.encrypt("y", to: bob), from: try certificate(for: mallory))
        let forgedSent = try sealedSenderMultiRecipientEncrypt(
            forged, for: [bob.address], identityStore: alice.store, sessionStore: alice.store, context: alice.context)
        #expect(throws: SignalError.self) {
            try UnidentifiedSenderMessageContent(
                message: try sealedSenderMultiRecipientMessageForSingleRecipient(forgedSent), identityStore: bob.store, context: bob.context
            )
        }
        // Recipients that cannot be written: a name that is not a service id, a device without a session.
        let named = try ProtocolAddress(name: "+14155550101", deviceId: 1)
        try alice.startSession(
            with: Device(store: InMemorySignalProtocolStore(identity: bob.identity, registrationId: 9)), bundle: try bob.bundle(kyberId: 22)
        )
        #expect(throws: SignalError.self) {
            try sealedSenderMultiRecipientEncrypt(
                content, for: [named], identityStore: alice.store, sessionStore: alice.store, context: alice.context)
        }
        #expect(throws: SignalError.self) {
            try sealedSenderMultiRecipientEncrypt(
                content, for: [Device().address], identityStore: alice.store, sessionStore: alice.store, context: alice.context)
        }
    }
}
