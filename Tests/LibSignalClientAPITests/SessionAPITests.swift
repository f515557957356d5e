import Foundation
import ParleyProtocol
import Testing

/// A version-4 session with SPQR, both ways, through LibSignalClient's free functions and labels.
@Suite struct SessionAPITests {
    @Test func pqxdhSessionWithSPQRBothWays() throws {
        let alice = Device()
        let bob = Device()
        try alice.startSession(with: bob, bundle: try bob.bundle())
        let record = try #require(try alice.store.loadSession(for: bob.address, context: alice.context))
        #expect(record.hasCurrentState && record.hasCurrentState(now: Date()))
        #expect(
            !record.hasCurrentState(now: Date().addingTimeInterval(31 * 24 * 3600)),
            "an unanswered session expires after 30 days")
        #expect(try record.remoteRegistrationId() == bob.store.localRegistrationId(context: bob.context))

        let first = try alice.encrypt("hello", to: bob)
        #expect(first.messageType == .preKey)
        let preKeyMessage = try PreKeySignalMessage(bytes: first.serialize())
        #expect(preKeyMessage.signedPreKeyId == 7)
        #expect(try bob.decrypt(first, from: alice) == "hello")
        for round in 0..<40 {
            let there = try alice.encrypt("a\(round)", to: bob)
            #expect(try bob.decrypt(there, from: alice) == "a\(round)")
            let back = try bob.encrypt("b\(round)", to: alice)
            #expect(back.messageType == .whisper)
            #expect(try alice.decrypt(back, from: bob) == "b\(round)")
        }
        let bobRecord = try #require(try bob.store.loadSession(for: alice.address, context: bob.context))
        #expect(bobRecord.sessionVersion == 4 && bobRecord.usesSPQR)
        let last = try SignalMessage(bytes: try bob.encrypt("x", to: alice).serialize())
        #expect(
            try alice.store.loadSession(for: bob.address, context: alice.context)!.currentRatchetKeyMatches(last.senderRatchetKey) == false)
        let restored = try SessionRecord(bytes: bobRecord.serialize())
        #expect(restored.serialize() == bobRecord.serialize())
    }

    @Test func groupMessagesWithSenderKeys() throws {
        let alice = Device()
        let bob = Device()
        let group = UUID()
        let distribution = try SenderKeyDistributionMessage(
            from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        let received = try SenderKeyDistributionMessage(bytes: distribution.serialize())
        #expect(received.distributionId == group && received.chainKey.count == 32)
        try processSenderKeyDistributionMessage(received, from: alice.address, store: bob.store, context: bob.context)
        let message = try groupEncrypt(
            Data("to the group".utf8), from: alice.address, distributionId: group,
            store: alice.store, context: alice.context)
        #expect(message.messageType == .senderKey)
        let parsed = try SenderKeyMessage(bytes: message.serialize())
        #expect(parsed.distributionId == group && parsed.chainId == received.chainId)
        #expect(try parsed.verifySignature(against: received.signatureKey))
        let plaintext = try groupDecrypt(message.serialize(), from: alice.address, store: bob.store, context: bob.context)
        #expect(plaintext == Data("to the group".utf8))
    }

    /// Signal's C library's form (no distribution id) is still spoken on request, and then needs the group named.
    @Test func senderKeysInTheCLibrarysForm() throws {
        let alice = Device()
        let bob = Device()
        let group = UUID()
        let distribution = try SenderKeyDistributionMessage(
            from: alice.address, distributionId: group, format: .protocolC, store: alice.store, context: alice.context)
        let received = try SenderKeyDistributionMessage(bytes: distribution.serialize())
        #expect(received.distributionId == nil)
        #expect(throws: SignalError.self) {
            try processSenderKeyDistributionMessage(received, from: alice.address, store: bob.store, context: bob.context)
        }
        try processSenderKeyDistributionMessage(
            received, from: alice.address, distributionId: group, store: bob.store, context: bob.context)
        let legacy = try groupEncrypt(
            Data("c".utf8), from: alice.address, distributionId: group, format: .protocolC,
            store: alice.store, context: alice.context)
        #expect(try SenderKeyMessage(bytes: legacy.serialize()).distributionId == nil)
        #expect(throws: SignalError.self) {
            try groupDecrypt(legacy.serialize(), from: alice.address, store: bob.store, context: bob.context)
        }
        #expect(
            try groupDecrypt(legacy.serialize(), from: alice.address, distributionId: group, store: bob.store, context: bob.context)
                == Data("c".utf8))
        // The same chain then sends in libsignal's form, and a message naming another group is refused.
        let current = try groupEncrypt(
            Data("l".utf8), from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        #expect(try groupDecrypt(current.serialize(), from: alice.address, store: bob.store, context: bob.context) == Data("l".utf8))
        let next = try groupEncrypt(Data("m".utf8), from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        #expect(throws: SignalError.self) {
            try groupDecrypt(next.serialize(), from: alice.address, distributionId: UUID(), store: bob.store, context: bob.context)
        }
    }
}
