import Foundation
import Testing

@testable import ParleyProtocol

/// Sessions with the SPQR (triple) ratchet: every version-4 message carries `pq_ratchet`, its key salts the
/// message keys, epochs advance, and sessions with and without SPQR never mix.
@Suite struct TripleRatchetSessionTests {
    static func pqRatchet(_ message: CiphertextMessage) throws -> [UInt8] {
        switch message.messageType {
        case .preKey: return try PreKeySignalMessage(bytes: message.serialize()).signalMessage.pqRatchet
        default: return try SignalMessage(bytes: message.serialize()).pqRatchet
        }
    }

    @Test func everyMessageCarriesPQRatchetAndEpochsAdvance() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(), from: bob)
        let first = try alice.encrypt("first", to: bob)
        let firstRatchet = try SPQRMessage(bytes: try Self.pqRatchet(first))
        #expect(first.messageType == .preKey && firstRatchet.epoch == 1 && firstRatchet.index == 1 && firstRatchet.kind == .header)
        #expect(try bob.decryptText(first, from: alice) == "first")
        for round in 0..<160 {
            let a = try alice.encrypt("a\(round)", to: bob)
            #expect(try !Self.pqRatchet(a).isEmpty)
            #expect(try bob.decryptText(a, from: alice) == "a\(round)")
            let b = try bob.encrypt("b\(round)", to: alice)
            #expect(try alice.decryptText(b, from: bob) == "b\(round)")
        }
        let aliceState = try #require(try alice.session(with: bob)?.currentState)
        let bobState = try #require(try bob.session(with: alice)?.currentState)
        #expect((aliceState.spqrEpoch ?? 0) >= 3 && (bobState.spqrEpoch ?? 0) >= 3)
    }

    @Test func aTamperedPQRatchetIsRefusedAndTheGenuineMessageStillDecrypts() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        for round in 0..<40 {
            let message = try SignalMessage(bytes: try alice.encrypt("m\(round)", to: bob).serialize())
            var bytes = message.serialize()
            // The pq_ratchet sits just before the 8-byte MAC's protobuf body end; flip a byte inside it.
            let ratchet = message.pqRatchet
            let start = try #require(bytes.firstRange(of: ratchet)).lowerBound
            bytes[start + ratchet.count / 2] ^= 0x01
            #expect(throws: SignalError.self) { try bob.decrypt(bytes: bytes, type: .whisper, from: alice) }
            #expect(try bob.decrypt(bytes: message.serialize(), type: .whisper, from: alice) == Array("m\(round)".utf8))
            _ = try alice.decrypt(try bob.encrypt("r", to: alice), from: bob)
        }
    }

    @Test func sessionsWithAndWithoutSPQRDoNotMix() throws {
        // Without the flag on either side: a pre-SPQR version-4 session, no field 5.
        do {
            let alice = TestParty("alice")
            let bob = TestParty("bob")
            try alice.process(try bob.bundle(spqr: false), from: bob)
            let message = try alice.encrypt("plain v4", to: bob)
            #expect(try Self.pqRatchet(message).isEmpty)
            #expect(try bob.decryptText(message, from: alice) == "plain v4")
            #expect(try bob.session(with: alice)?.currentState?.usesSPQR == false)
        }
        // The responder's prekey is for SPQR but the initiator made a pre-SPQR session: refused, no session left.
        do {
            let alice = TestParty("alice")
            let bob = TestParty("bob")
            var bundle = try bob.bundle(spqr: true)
            bundle.spqr = false
            try alice.process(bundle, from: bob)
            #expect(throws: SignalError.self) { try bob.decrypt(try alice.encrypt("missing", to: bob), from: alice) }
            #expect(try bob.session(with: alice)?.currentState == nil)
        }
        // The responder's prekey is not for SPQR but the initiator salted with SPQR: refused (the MAC fails).
        do {
            let alice = TestParty("alice")
            let bob = TestParty("bob")
            var bundle = try bob.bundle(spqr: false)
            bundle.spqr = true
            try alice.process(bundle, from: bob)
            #expect(throws: SignalError.self) { try bob.decrypt(try alice.encrypt("unexpected", to: bob), from: alice) }
            #expect(try bob.session(with: alice)?.currentState == nil)
        }
    }

    @Test func anOlderPreSPQRSessionDecryptsButDoesNotTakeOverSending() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(preKeyId: 100, kyberPreKeyId: 1000, spqr: false), from: bob)
        let late = try alice.encrypt("sent on the old session", to: bob)
        _ = try bob.decrypt(try alice.encrypt("hello", to: bob), from: alice)
        // A new SPQR session replaces it.
        try alice.process(try bob.bundle(preKeyId: 101, signedPreKeyId: 2, kyberPreKeyId: 1001, spqr: true), from: bob)
        _ = try bob.decrypt(try alice.encrypt("on SPQR", to: bob), from: alice)
        #expect(try bob.session(with: alice)?.currentState?.usesSPQR == true)
        // A late message of the old session still decrypts; sending stays on the SPQR session.
        #expect(try bob.decryptText(late, from: alice) == "sent on the old session")
        #expect(try bob.session(with: alice)?.currentState?.usesSPQR == true)
        let reply = try bob.encrypt("reply", to: alice)
        #expect(try !Self.pqRatchet(reply).isEmpty)
        #expect(try alice.decryptText(reply, from: bob) == "reply")
    }
}

/// SignalMessage field 6: sender and recipient ServiceIds with device ids, under the MAC, in pre-key messages.
@Suite struct MessageAddressesTests {
    static func decryptPreKey(
        _ message: CiphertextMessage, at bob: TestParty, from alice: TestParty,
        as local: ProtocolAddress?
    ) throws -> [UInt8] {
        Array(
            try signalDecryptPreKey(
                message: try PreKeySignalMessage(bytes: message.serialize()), from: alice.address, localAddress: local,
                sessionStore: bob.store, identityStore: bob.store, preKeyStore: bob.store, signedPreKeyStore: bob.store,
                kyberPreKeyStore: bob.store, context: bob.context))
    }

    @Test func preKeyMessagesNameBothEndsWhenTheNamesAreServiceIds() throws {
        let bobUUID = UUID().uuidString.lowercased()
        let alice = TestParty(UUID().uuidString.lowercased())
        let bob = TestParty("PNI:" + bobUUID, deviceId: 2)
        try alice.process(try bob.bundle(), from: bob)
        let message = try signalEncrypt(
            message: Array("hi".utf8), for: bob.address, localAddress: alice.address,
            sessionStore: alice.store, identityStore: alice.store, context: alice.context)
        let addresses = try PreKeySignalMessage(bytes: message.serialize()).signalMessage.addresses
        #expect(addresses.count == 36 && addresses[0] == 0 && addresses[17] == 1 && addresses[18] == 1 && addresses[35] == 2)
        // Addressed to another device (or the ACI instead of the PNI): refused, nothing stored.
        #expect(throws: SignalError.self) {
            try Self.decryptPreKey(message, at: bob, from: alice, as: try ProtocolAddress(name: bobUUID, deviceId: 2))
        }
        #expect(throws: SignalError.self) {
            try Self.decryptPreKey(message, at: bob, from: alice, as: try ProtocolAddress(name: bob.address.name, deviceId: 3))
        }
        #expect(try bob.session(with: alice)?.currentState == nil)
        // From someone else's address: refused too.
        let mallory = TestParty(UUID().uuidString.lowercased())
        #expect(throws: SignalError.self) { try Self.decryptPreKey(message, at: bob, from: mallory, as: bob.address) }
        #expect(try Self.decryptPreKey(message, at: bob, from: alice, as: bob.address) == Array("hi".utf8))
        // Once answered, messages carry none; a receiver that does not know its own address checks the sender only.
        _ = try alice.decrypt(try bob.encrypt("ok", to: alice), from: bob)
        let later = try signalEncrypt(
            message: Array("later".utf8), for: bob.address, localAddress: alice.address,
            sessionStore: alice.store, identityStore: alice.store, context: alice.context)
        #expect(try SignalMessage(bytes: later.serialize()).addresses.isEmpty)
    }

    @Test func namesThatAreNotServiceIdsCarryNoAddresses() throws {
        let alice = TestParty("+14155550101")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(), from: bob)
        let message = try signalEncrypt(
            message: Array("hi".utf8), for: bob.address, localAddress: alice.address,
            sessionStore: alice.store, identityStore: alice.store, context: alice.context)
        #expect(try PreKeySignalMessage(bytes: message.serialize()).signalMessage.addresses.isEmpty)
        #expect(try Self.decryptPreKey(message, at: bob, from: alice, as: bob.address) == Array("hi".utf8))
    }
}
