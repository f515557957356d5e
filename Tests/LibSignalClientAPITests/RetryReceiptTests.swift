import Foundation
import ParleyProtocol
import Testing

/// Retry receipts: the receiver of a message it cannot decrypt answers with a `DecryptionErrorMessage` inside
/// `PlaintextContent`; the sender finds the session it names, archives it and sends again on a new one.
@Suite struct RetryReceiptTests {
    @Test func aBrokenSessionLosesNoMessage() throws {
        let alice = Device()
        let bob = Device()
        try alice.startSession(with: bob, bundle: try bob.bundle())
        #expect(try bob.decrypt(try alice.encrypt("set up", to: bob), from: alice) == "set up")
        #expect(try alice.decrypt(try bob.encrypt("ok", to: alice), from: bob) == "ok")

        // Bob loses his session (a restored backup, say); Alice's next message cannot be decrypted.
        let lost = try alice.encrypt("important", to: bob)
        let timestamp: UInt64 = 1_764_000_000_123
        try bob.store.storeSession(SessionRecord(), for: alice.address, context: bob.context)
        #expect(throws: SignalError.self) { try bob.decrypt(lost, from: alice) }

        // Bob's receipt names the message by its sender ratchet key, timestamp and Alice's device.
        let receipt = try DecryptionErrorMessage(
            originalMessageBytes: lost.serialize(), type: lost.messageType, timestamp: timestamp,
            originalSenderDeviceId: alice.address.deviceId)
        let content = PlaintextContent(receipt)
        let wire = CiphertextMessage(content)
        #expect(wire.messageType == .plaintext)
        #expect(wire.serialize().first == 0xC0 && wire.serialize().last == 0x80)

        // Alice reads it (plaintext content travels unencrypted) and checks it is about her current session.
        let arrived = try PlaintextContent(bytes: wire.serialize())
        let parsed = try DecryptionErrorMessage.extractFromSerializedContent(arrived.body)
        #expect(parsed.timestamp == timestamp && parsed.deviceId == alice.address.deviceId)
        let ratchetKey = try #require(parsed.ratchetKey)
        var record = try #require(try alice.store.loadSession(for: bob.address, context: alice.context))
        #expect(try record.currentRatchetKeyMatches(ratchetKey))
        #expect(try DecryptionErrorMessage(bytes: parsed.serialize()).serialize() == receipt.serialize())

        // Alice archives the session, fetches a new bundle and re-sends: the message arrives.
        record.archiveCurrentState()
        try alice.store.storeSession(record, for: bob.address, context: alice.context)
        try alice.startSession(with: bob, bundle: try bob.bundle(kyberId: 21))
        let resent = try alice.encrypt("important", to: bob)
        #expect(resent.messageType == .preKey)
        #expect(try bob.decrypt(resent, from: alice) == "important")
    }

    @Test func receiptsForGroupMessagesCarryNoRatchetKeyAndPlaintextHasNone() throws {
        let alice = Device()
        let group = UUID()
        _ = try SenderKeyDistributionMessage(from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        let message = try groupEncrypt(
            Data("g".utf8), from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        let receipt = try DecryptionErrorMessage(
            originalMessageBytes: message.serialize(), type: .senderKey, timestamp: 5, originalSenderDeviceId: 2)
        #expect(receipt.ratchetKey == nil && receipt.deviceId == 2)
        #expect(throws: SignalError.self) {
            try DecryptionErrorMessage(originalMessageBytes: Data([0xC0]), type: .plaintext, timestamp: 5, originalSenderDeviceId: 2)
        }
    }

    @Test func malformedReceiptsAndContentAreRefused() {
        #expect(throws: SignalError.self) { try PlaintextContent(bytes: Data()) }
        #expect(throws: SignalError.self) { try PlaintextContent(bytes: Data([0x33, 0x01])) }
        #expect(throws: SignalError.self) { try DecryptionErrorMessage.extractFromSerializedContent(Data([0x42, 0x00])) }
        #expect(throws: SignalError.self) { try DecryptionErrorMessage.extractFromSerializedContent(Data([0x80])) }
        #expect(throws: SignalError.self) { try DecryptionErrorMessage(bytes: Data([0x18, 0x05])) }  // no timestamp
        #expect(throws: SignalError.self) { try DecryptionErrorMessage(bytes: Data([0x0A, 0x02, 0x05, 0x00, 0x10, 0x01])) }
    }
}
