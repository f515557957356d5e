import ParleyProtocol

/// Sealed sender: the outer envelope opened with Bob's identity, the inner content, and the certificates.
enum SealedSenderTargets {
    static let envelope = FuzzTarget(run: { input in
        let f = Fixtures.shared
        let bob = ReadOnlyStore(f.bob)
        guard let content = try? sealedSenderDecryptToUSMC(message: input, trustRoot: f.trustRoot.publicKey, timestamp: 1_000,
                                                           identityStore: bob, context: f.context)
        else { return }
        invariant(content.senderCertificate.publicKey == (try? f.alice.identityKeyPair(context: f.context).publicKey),
                  "an opened envelope names the identity that sealed it (only Alice's certificate is signed by the trust root)")
        _ = try? sealedSenderDecrypt(
            message: input, from: try SealedSenderAddress(e164: nil, uuidString: f.bobAddress.name, deviceId: 1),
            trustRoot: f.trustRoot.publicKey, timestamp: 1_000, sessionStore: bob, identityStore: bob, preKeyStore: bob,
            signedPreKeyStore: bob, kyberPreKeyStore: bob, context: f.context)
    }, seeds: { [Fixtures.shared.sealedEnvelope] })

    static let content = FuzzTarget(run: { input in
        guard let content = try? UnidentifiedSenderMessageContent(bytes: input) else { return }
        invariant((try? UnidentifiedSenderMessageContent(bytes: content.serialize())) != nil, "parsed sealed content re-parses")
        _ = content.senderCertificate.validate(trustRoot: Fixtures.shared.trustRoot.publicKey, time: 1_000)
    }, seeds: { [Fixtures.shared.sealedContent] })

    static let certificates = FuzzTarget(run: { input in
        let trustRoot = Fixtures.shared.trustRoot.publicKey
        if let certificate = try? SenderCertificate(input) {
            invariant((try? SenderCertificate(certificate.serialize())) != nil, "a parsed sender certificate re-parses")
            _ = certificate.validate(trustRoot: trustRoot, time: 1_000)
        }
        if let certificate = try? ServerCertificate(input) {
            invariant((try? ServerCertificate(certificate.serialize())) != nil, "a parsed server certificate re-parses")
        }
    }, seeds: { [Array(Fixtures.shared.senderCertificate.serialize()), Array(Fixtures.shared.serverCertificate.serialize())] })
}
