import Foundation
import Testing

@testable import ParleyProtocol

@Suite struct SessionTests {
    static let setups: [KEMKeyType?] = [nil, .kyber1024, .mlkem1024]

    @Test(arguments: setups)
    func sessionSetupGivesTheExpectedVersion(_ kem: KEMKeyType?) throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(kem: kem), from: bob)
        let first = try alice.encrypt("hello", to: bob)
        #expect(first.messageType == .preKey)
        let expected: UInt8 = kem == nil ? 0x33 : 0x44
        #expect(first.serialize().first == expected)
        #expect(try bob.decryptText(first, from: alice) == "hello")
        let reply = try bob.encrypt("hi", to: alice)
        #expect(reply.messageType == .whisper && reply.serialize().first == expected)
        #expect(try alice.decryptText(reply, from: bob) == "hi")
        #expect(try alice.encrypt("again", to: bob).messageType == .whisper)
        #expect(try alice.session(with: bob)?.sessionVersion == (kem == nil ? 3 : 4))
        #expect(try bob.session(with: alice)?.sessionVersion == (kem == nil ? 3 : 4))
    }

    @Test func pqxdhSessionKeepsTheSPQRAuthenticationKey() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let aliceKey = try #require(try alice.session(with: bob)?.currentState?.structure.pqAuthKey)
        let bobKey = try #require(try bob.session(with: alice)?.currentState?.structure.pqAuthKey)
        #expect(aliceKey.count == 32 && aliceKey == bobKey)
    }

    @Test func preKeyMessagesRepeatTheSameKEMCiphertextUntilReply() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(), from: bob)
        let messages = try (0..<4).map { try alice.encrypt("pre \($0)", to: bob) }
        let parsed = try messages.map { try PreKeySignalMessage(bytes: $0.serialize()) }
        #expect(Set(parsed.map { $0.kyberCiphertext! }).count == 1)
        #expect(Set(parsed.map { $0.baseKey }).count == 1)
        for index in [2, 0, 3, 1] {
            #expect(try bob.decryptText(messages[index], from: alice) == "pre \(index)")
        }
    }

    @Test func oneTimePreKeyIsRemovedAndKEMPreKeyMarkedUsed() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(preKeyId: 77, kyberPreKeyId: 500), from: bob)
        #expect(bob.store.containsPreKey(id: 77))
        _ = try bob.decrypt(try alice.encrypt("x", to: bob), from: alice)
        #expect(!bob.store.containsPreKey(id: 77))
        #expect(bob.store.isKyberPreKeyUsed(id: 500))
    }

    @Test func sessionWithoutOneTimePreKeyWorks() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob, preKeyId: nil)
        #expect(try bob.decryptText(try alice.encrypt("fine", to: bob), from: alice) == "fine")
    }

    @Test func outOfOrderWithinAndAcrossChains() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let a1 = try alice.encrypt("a1", to: bob)
        let a2 = try alice.encrypt("a2", to: bob)
        #expect(try bob.decryptText(a2, from: alice) == "a2")
        #expect(try alice.decryptText(try bob.encrypt("b1", to: alice), from: bob) == "b1")
        let a3 = try alice.encrypt("a3", to: bob)
        let a4 = try alice.encrypt("a4", to: bob)
        #expect(try bob.decryptText(a4, from: alice) == "a4")
        #expect(try bob.decryptText(a1, from: alice) == "a1")
        #expect(try bob.decryptText(a3, from: alice) == "a3")
    }

    @Test func duplicatesAreRejected() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let m1 = try alice.encrypt("m1", to: bob)
        let m2 = try alice.encrypt("m2", to: bob)
        _ = try bob.decrypt(m2, from: alice)
        _ = try bob.decrypt(m1, from: alice)
        for message in [m1, m2] {
            #expect { try bob.decrypt(message, from: alice) } throws: { error in
                if case SignalError.duplicatedMessage = error { return true } else { return false }
            }
        }
    }

    @Test func failedDecryptionLeavesStateUnchanged() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let message = Array(try alice.encrypt("keep me", to: bob).serialize())
        let before = try #require(try bob.session(with: alice)).serialize()
        var tampered = message
        tampered[tampered.count - 1] ^= 1
        #expect(throws: SignalError.self) { try bob.decrypt(bytes: tampered, type: .whisper, from: alice) }
        #expect(try #require(try bob.session(with: alice)).serialize() == before)
        #expect(try bob.decrypt(bytes: message, type: .whisper, from: alice) == Array("keep me".utf8))
    }

    @Test func failedPreKeyDecryptionConsumesNothing() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(preKeyId: 5), from: bob)
        let message = Array(try alice.encrypt("first", to: bob).serialize())
        var tampered = message
        tampered[tampered.count - 1] ^= 1
        #expect(throws: SignalError.self) { try bob.decrypt(bytes: tampered, type: .preKey, from: alice) }
        #expect(try bob.session(with: alice) == nil)
        #expect(bob.store.containsPreKey(id: 5))
        #expect(try bob.decrypt(bytes: message, type: .preKey, from: alice) == Array("first".utf8))
    }

    @Test func unknownPreKeyIdsAreReported() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        let bundle = try bob.bundle(preKeyId: 1)
        try alice.process(bundle, from: bob)
        try bob.store.removePreKey(id: 1, context: bob.context)
        #expect { try bob.decrypt(try alice.encrypt("x", to: bob), from: alice) } throws: { error in
            if case SignalError.invalidKeyIdentifier = error { return true } else { return false }
        }
    }

    @Test func newSessionArchivesTheOldOneWhichStillDecryptsLateMessages() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let late = try bob.encrypt("late", to: alice)
        try alice.establish(with: bob)
        #expect(try alice.session(with: bob)?.previousStates.count == 1)
        #expect(try alice.decryptText(late, from: bob) == "late")
    }

    @Test func archivedStatesAreBounded() throws {
        var record = SessionRecord()
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let state = try #require(try alice.session(with: bob)?.currentState)
        for _ in 0..<(ProtocolLimits.maximumArchivedStates + 10) { record.promote(state) }
        #expect(record.previousStates.count == ProtocolLimits.maximumArchivedStates)
        #expect(try SessionRecord(bytes: record.serialize()).previousStates.count == ProtocolLimits.maximumArchivedStates)
    }

    @Test func changedIdentityIsUntrustedForSetupSendAndReceive() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        let mallory = TestParty("bob")
        try alice.establish(with: bob)
        #expect { try alice.process(try mallory.bundle(), from: bob) } throws: { error in
            if case SignalError.untrustedIdentity = error { return true } else { return false }
        }
        // Trust withdrawn: an identity store that no longer trusts bob refuses both directions.
        let message = try bob.encrypt("to alice", to: alice)
        _ = try alice.store.saveIdentity(IdentityKeyPair.generate().identityKey, for: bob.address, context: alice.context)
        #expect(throws: SignalError.self) { try alice.encrypt("x", to: bob) }
        #expect(throws: SignalError.self) { try alice.decrypt(message, from: bob) }
    }

    @Test func unknownSenderHasNoSession() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        let carol = TestParty("carol")
        try alice.establish(with: bob)
        #expect { try carol.encrypt("x", to: bob) } throws: { error in
            if case SignalError.sessionNotFound = error { return true } else { return false }
        }
        #expect { try carol.decrypt(try alice.encrypt("x", to: bob), from: alice) } throws: { error in
            if case SignalError.sessionNotFound = error { return true } else { return false }
        }
    }

    @Test func pqxdhPolicyRefusesX3DHBothWays() throws {
        let alice = TestParty("alice", policy: .requirePQXDH)
        let bob = TestParty("bob", policy: .requirePQXDH)
        #expect { try alice.process(try bob.bundle(kem: nil), from: bob) } throws: { error in
            if case SignalError.sessionSetupRefused = error { return true } else { return false }
        }
        let legacy = TestParty("legacy")
        try legacy.process(try bob.bundle(kem: nil), from: bob)
        #expect { try bob.decrypt(try legacy.encrypt("v3", to: bob), from: legacy) } throws: { error in
            if case SignalError.sessionSetupRefused = error { return true } else { return false }
        }
        try alice.establish(with: bob)
    }

    @Test func badBundleSignaturesAreRejected() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        let good = try bob.bundle()
        var signature = good.signedPreKeySignature
        signature[10] ^= 1
        let badSigned = PreKeyBundle(
            registrationId: good.registrationId, deviceId: good.deviceId, oneTimePreKey: (good.preKeyId!, good.preKeyPublic!),
            signedPreKeyId: good.signedPreKeyId, signedPreKey: good.signedPreKeyPublic, signedPreKeySignature: signature,
            identity: good.identityKey, kyberPreKey: (good.kyberPreKeyId!, good.kyberPreKeyPublic!, good.kyberPreKeySignature!))
        var kyberSignature = good.kyberPreKeySignature!
        kyberSignature[0] ^= 1
        let badKyber = PreKeyBundle(
            registrationId: good.registrationId, deviceId: good.deviceId, oneTimePreKey: nil,
            signedPreKeyId: good.signedPreKeyId, signedPreKey: good.signedPreKeyPublic,
            signedPreKeySignature: good.signedPreKeySignature, identity: good.identityKey,
            kyberPreKey: (good.kyberPreKeyId!, good.kyberPreKeyPublic!, kyberSignature))
        for bundle in [badSigned, badKyber] {
            #expect { try alice.process(bundle, from: bob) } throws: { error in
                if case SignalError.invalidSignature = error { return true } else { return false }
            }
        }
        #expect(try alice.session(with: bob) == nil)
    }

    @Test func unacknowledgedSessionExpiresAfterThirtyDays() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try processPreKeyBundle(
            try bob.bundle(), for: bob.address, sessionStore: alice.store, identityStore: alice.store,
            now: Date(timeIntervalSince1970: 1_000_000), context: alice.context)
        #expect(throws: SignalError.self) {
            try signalEncrypt(
                message: [1], for: bob.address, sessionStore: alice.store, identityStore: alice.store,
                now: Date(timeIntervalSince1970: 1_000_000 + 31 * 86_400), context: alice.context)
        }
    }

    @Test func skippedKeysAreBoundedAndFarJumpsRefused() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        var messages: [CiphertextMessage] = []
        for index in 0..<(ProtocolLimits.maximumMessageKeys + 10) { messages.append(try alice.encrypt("\(index)", to: bob)) }
        #expect(try bob.decryptText(messages.last!, from: alice) == "\(messages.count - 1)")
        let chain = try #require(try bob.session(with: alice)?.currentState?.structure.receiverChains.last)
        #expect(chain.messageKeys.count == ProtocolLimits.maximumMessageKeys)
        // The oldest skipped keys were dropped; the newest skipped still decrypt.
        #expect(throws: SignalError.self) { try bob.decrypt(messages[0], from: alice) }
        #expect(try bob.decryptText(messages[messages.count - 2], from: alice) == "\(messages.count - 2)")
    }

    /// Keys skipped by a second jump join those of the first and the oldest go past the bound (the fuzzer found that
    /// keeping them once cost time quadratic in the keys kept: its input is in Fuzz/Regressions/signal-message/).
    @Test func keysSkippedByTwoJumpsKeepTheNewestAcrossBoth() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        var messages: [CiphertextMessage] = []
        for index in 0..<3_000 { messages.append(try alice.encrypt("\(index)", to: bob)) }
        #expect(try bob.decryptText(messages[1_000], from: alice) == "1000")  // keeps 0…999
        #expect(try bob.decryptText(messages[2_999], from: alice) == "2999")  // keeps 1001…2998, dropping 0…997
        let chain = try #require(try bob.session(with: alice)?.currentState?.structure.receiverChains.last)
        #expect(chain.messageKeys.count == ProtocolLimits.maximumMessageKeys)
        #expect(chain.messageKeys.first?.index == 998)
        #expect(throws: SignalError.self) { try bob.decrypt(messages[997], from: alice) }
        // (998 and 999 are kept by the double ratchet but past SPQR's own window of 2,000 indices behind the newest.)
        for late in [1_001, 2_000, 2_998] { #expect(try bob.decryptText(messages[late], from: alice) == "\(late)") }
        #expect(throws: SignalError.self) { try bob.decrypt(messages[1_000], from: alice) }
    }

    @Test func largeCounterJumpIsRefused() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        var state = try #require(try alice.session(with: bob)?.currentState)
        let chain = state.senderChainKey
        state.senderChainKey = ChainKey(key: chain.key, index: chain.index + ProtocolLimits.maximumForwardJumps + 5)
        let far = try SessionCipher.encrypt(Array("far".utf8), state: &state)
        #expect { try bob.decrypt(far, from: alice) } throws: { error in
            if case SignalError.invalidMessage = error { return true } else { return false }
        }
    }

    @Test func sessionRecordSerializationRoundTrips() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let record = try #require(try alice.session(with: bob))
        let restored = try SessionRecord(bytes: record.serialize())
        #expect(restored.serialize() == record.serialize())
        #expect(try restored.remoteRegistrationId() == bob.store.localRegistrationId(context: bob.context))
        try alice.store.storeSession(restored, for: bob.address, context: alice.context)
        #expect(try bob.decryptText(try alice.encrypt("after restore", to: bob), from: alice) == "after restore")
    }
}
