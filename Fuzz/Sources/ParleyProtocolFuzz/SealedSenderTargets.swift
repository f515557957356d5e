import FuzzHarness
import ParleyProtocol

/// Sealed sender: the outer envelope opened with Bob's identity, the inner content, and the certificates.
enum SealedSenderTargets {
    static let envelope = FuzzTarget(
        run: { input in
            let f = Fixtures.shared
            let bob = ReadOnlyStore(f.bob)
            guard
                let content = try? sealedSenderDecryptToUSMC(
                    message: input, trustRoot: f.trustRoot.publicKey, timestamp: 1_000,
                    identityStore: bob, context: f.context)
            else { return }
            invariant(
                content.senderCertificate.publicKey == (try? f.alice.identityKeyPair(context: f.context).publicKey),
                "an opened envelope names the identity that sealed it (only Alice's certificate is signed by the trust root)")
            _ = try? sealedSenderDecrypt(
                message: input, from: try SealedSenderAddress(e164: nil, uuidString: f.bobAddress.name, deviceId: 1),
                trustRoot: f.trustRoot.publicKey, timestamp: 1_000, sessionStore: bob, identityStore: bob, preKeyStore: bob,
                signedPreKeyStore: bob, kyberPreKeyStore: bob, context: f.context)
        }, seeds: { [Fixtures.shared.sealedEnvelope, Fixtures.shared.sealedV2Delivered] })

    static let content = FuzzTarget(
        run: { input in
            guard let content = try? UnidentifiedSenderMessageContent(bytes: input) else { return }
            invariant((try? UnidentifiedSenderMessageContent(bytes: content.serialize())) != nil, "parsed sealed content re-parses")
            _ = content.senderCertificate.validate(trustRoot: Fixtures.shared.trustRoot.publicKey, time: 1_000)
        }, seeds: { [Fixtures.shared.sealedContent] })

    static let certificates = FuzzTarget(
        run: { input in
            let trustRoot = Fixtures.shared.trustRoot.publicKey
            if let certificate = try? SenderCertificate(input) {
                invariant((try? SenderCertificate(certificate.serialize())) != nil, "a parsed sender certificate re-parses")
                _ = certificate.validate(trustRoot: trustRoot, time: 1_000)
            }
            if let certificate = try? ServerCertificate(input) {
                invariant((try? ServerCertificate(certificate.serialize())) != nil, "a parsed server certificate re-parses")
            }
        }, seeds: { [Array(Fixtures.shared.senderCertificate.serialize()), Array(Fixtures.shared.serverCertificate.serialize())] })

    /// The uploaded multi-recipient form a server parses: any input either parses into recipients whose delivered
    /// messages have the fixed layout, or is refused.
    static let multiRecipient = FuzzTarget(
        run: { input in
            guard let message = try? SealedSenderMultiRecipientMessage(bytes: input) else { return }
            invariant(
                (message.recipients.count + message.excludedRecipients.count) * 18 <= input.count,
                "every parsed recipient took at least 18 bytes")
            for (_, recipient) in message.recipients {
                let delivered = message.messageForRecipient(recipient)
                invariant(delivered.first == 0x22 && delivered.count >= 1 + 48 + 32, "a delivered share has its fixed prefix")
                invariant(
                    !recipient.devices.isEmpty && recipient.devices.allSatisfy { (1...127).contains($0.deviceId) },
                    "a recipient has devices with ids 1…127")
            }
        }, seeds: { [Fixtures.shared.sealedMultiRecipient] })
}
