import Foundation
import Testing

@testable import ParleyProtocol

/// Every validation rule of sealed sender v1: the chain to the trust root, the server's signature,
/// expiry, the binding between certificate and sealing key, self-sends, and envelope integrity.
@Suite struct SealedSenderTests {
    let trustRoot = PrivateKey.generate()
    let serverKey = PrivateKey.generate()
    let alice = TestParty("9d0652a3-dcc3-4d11-975f-74d61598733f", deviceId: 1)
    let bob = TestParty("e80f7bbe-5b94-471e-bd8c-2173654ea3d1", deviceId: 1)
    let now: UInt64 = 1_800_000_000_000

    func certificate(
        for party: TestParty, expiration: UInt64? = nil, signedBy signer: PrivateKey? = nil,
        root: PrivateKey? = nil, identity: PublicKey? = nil
    ) throws -> SenderCertificate {
        let server = try ServerCertificate(keyId: 7, publicKey: serverKey.publicKey, trustRoot: root ?? trustRoot)
        return try SenderCertificate(
            sender: try SealedSenderAddress(e164: "+14155550101", uuidString: party.address.name, deviceId: party.address.deviceId),
            publicKey: identity ?? party.identity.publicKey, expiration: expiration ?? now + 86_400_000,
            signerCertificate: server, signerKey: signer ?? serverKey)
    }

    func bobLocal() throws -> SealedSenderAddress {
        try SealedSenderAddress(e164: nil, uuidString: bob.address.name, deviceId: 1)
    }

    func open(_ sealed: [UInt8], at time: UInt64? = nil, trust: PublicKey? = nil) throws -> SealedSenderResult {
        try sealedSenderDecrypt(
            message: sealed, from: try bobLocal(), trustRoot: trust ?? trustRoot.publicKey, timestamp: time ?? now,
            sessionStore: bob.store, identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store,
            kyberPreKeyStore: bob.store, context: bob.context)
    }

    func seal(_ text: String, certificate: SenderCertificate) throws -> [UInt8] {
        Array(
            try sealedSenderEncrypt(
                message: Array(text.utf8), for: bob.address, from: certificate, sessionStore: alice.store,
                identityStore: alice.store, context: alice.context))
    }

    @Test func roundTripRevealsSenderOnlyToRecipient() throws {
        try alice.process(try bob.bundle(), from: bob)
        let sealed = try seal("sealed hello", certificate: try certificate(for: alice))
        #expect(sealed.first == 0x11)
        #expect(!sealed.contains(subsequence: Array(alice.address.name.utf8)))
        #expect(!sealed.contains(subsequence: Array(alice.identity.publicKey.serialize())))
        let result = try open(sealed)
        #expect(Array(result.message) == Array("sealed hello".utf8))
        #expect(result.sender.uuidString == alice.address.name && result.sender.e164 == "+14155550101")
        let reply = try bob.encrypt("reply", to: alice)
        #expect(try alice.decryptText(reply, from: bob) == "reply")
    }

    @Test func certificatesRoundTripThroughBytes() throws {
        let original = try certificate(for: alice)
        let parsed = try SenderCertificate(original.serialize())
        #expect(parsed.sender == original.sender && parsed.expiration == original.expiration)
        #expect(parsed.serverCertificate.keyId == 7)
        try parsed.check(trustRoot: trustRoot.publicKey, time: now)
        #expect(throws: SignalError.self) { try SenderCertificate([1, 2, 3]) }
        #expect(throws: SignalError.self) { try ServerCertificate([0xFF]) }
    }

    @Test func wrongTrustRootIsUntrusted() throws {
        try alice.process(try bob.bundle(), from: bob)
        let sealed = try seal("x", certificate: try certificate(for: alice, root: PrivateKey.generate()))
        #expect { try open(sealed) } throws: { error in
            if case SignalError.untrustedCertificate = error { return true } else { return false }
        }
    }

    @Test func certificateNotSignedByServerKeyIsInvalid() throws {
        try alice.process(try bob.bundle(), from: bob)
        let sealed = try seal("x", certificate: try certificate(for: alice, signedBy: PrivateKey.generate()))
        #expect { try open(sealed) } throws: { error in
            if case SignalError.invalidCertificate = error { return true } else { return false }
        }
    }

    @Test func expiredCertificateIsRefused() throws {
        try alice.process(try bob.bundle(), from: bob)
        let sealed = try seal("x", certificate: try certificate(for: alice, expiration: now - 1))
        #expect { try open(sealed) } throws: { error in
            if case SignalError.expiredCertificate = error { return true } else { return false }
        }
    }

    @Test func certificateForAnotherIdentityIsRefused() throws {
        try alice.process(try bob.bundle(), from: bob)
        let sealed = try seal("x", certificate: try certificate(for: alice, identity: PrivateKey.generate().publicKey))
        #expect { try open(sealed) } throws: { error in
            if case SignalError.invalidSealedSenderMessage = error { return true } else { return false }
        }
        #expect(try bob.session(with: alice) == nil, "nothing was decrypted or stored")
    }

    @Test func selfSendIsRefused() throws {
        let me = try bobLocal()
        try bob.process(try bob.bundle(preKeyId: 5, signedPreKeyId: 2), from: bob)
        let sealed = try sealedSenderEncrypt(
            message: [1], for: bob.address, from: try certificate(for: bob), sessionStore: bob.store,
            identityStore: bob.store, context: bob.context)
        #expect {
            try sealedSenderDecrypt(
                message: sealed, from: me, trustRoot: trustRoot.publicKey, timestamp: now, sessionStore: bob.store,
                identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store, kyberPreKeyStore: bob.store,
                context: bob.context)
        } throws: { if case SignalError.sealedSenderSelfSend = $0 { true } else { false } }
    }

    @Test func tamperedEnvelopesAreRefusedWithoutSideEffects() throws {
        try alice.process(try bob.bundle(), from: bob)
        let sealed = try seal("tamper", certificate: try certificate(for: alice))
        for position in stride(from: 0, to: sealed.count, by: max(1, sealed.count / 60)) {
            var copy = sealed
            copy[position] ^= 0x40
            #expect(throws: SignalError.self) { try open(copy) }
        }
        for bytes in [[], [0x11], [0x21] + sealed.dropFirst(), Array(sealed.prefix(40))] as [[UInt8]] {
            #expect(throws: SignalError.self) { try open(bytes) }
        }
        #expect(Array(try open(sealed).message) == Array("tamper".utf8))
    }

    @Test func envelopeForAnotherRecipientDoesNotOpen() throws {
        let carol = TestParty("c0c0c0c0-0000-4000-8000-000000000000")
        try alice.process(try bob.bundle(), from: bob)
        let sealed = try seal("for bob", certificate: try certificate(for: alice))
        #expect(throws: SignalError.self) {
            try sealedSenderDecryptToUSMC(
                message: sealed, trustRoot: trustRoot.publicKey, timestamp: now,
                identityStore: carol.store, context: carol.context)
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
