import Testing

@testable import ParleyProtocol

/// Every parser answers bad bytes with a typed error and never traps.
@Suite struct MalformedInputTests {
    static func sample() throws -> (whisper: [UInt8], preKey: [UInt8], skdm: [UInt8], group: [UInt8]) {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(), from: bob)
        let preKey = try alice.encrypt("hello", to: bob).serialize()
        _ = try bob.decrypt(bytes: preKey, type: .preKey, from: alice)
        let whisper = try bob.encrypt("reply", to: alice).serialize()
        let distribution = UUIDs.group
        let skdm = try SenderKeyDistributionMessage(
            from: alice.address, distributionId: distribution, store: alice.store, context: alice.context)
        let group = try groupEncrypt(
            [1, 2, 3], from: alice.address, distributionId: distribution, store: alice.store, context: alice.context)
        return (Array(whisper), Array(preKey), Array(skdm.serialize()), Array(group.serialize()))
    }

    /// Variants of a valid message: empty, truncated at every length, bytes flipped, garbage, version bytes.
    static func corruptions(of valid: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = [[], [0x33], [0x44], [0x23], [0x55], [UInt8](repeating: 0xFF, count: 64)]
        result += (1..<valid.count).map { Array(valid.prefix($0)) }
        result += stride(from: 0, to: valid.count, by: max(1, valid.count / 40)).map { index in
            var copy = valid
            copy[index] ^= 0xA5
            return copy
        }
        result.append(valid + [0x00])
        result.append([valid[0]] + [UInt8](repeating: 0x0A, count: 100))
        // A length prefix that claims far more bytes than follow.
        result.append([valid[0], 0x22, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F] + [UInt8](repeating: 0, count: 16))
        return result
    }

    @Test func parsersRejectCorruptedBytesWithTypedErrors() throws {
        let sample = try Self.sample()
        for bytes in Self.corruptions(of: sample.whisper) { _ = try? SignalMessage(bytes: bytes) }
        for bytes in Self.corruptions(of: sample.preKey) { _ = try? PreKeySignalMessage(bytes: bytes) }
        for bytes in Self.corruptions(of: sample.skdm) { _ = try? SenderKeyDistributionMessage(bytes: bytes) }
        for bytes in Self.corruptions(of: sample.group) { _ = try? SenderKeyMessage(bytes: bytes) }
        for bytes in [[], [0x33], [UInt8](repeating: 0xFF, count: 20)] as [[UInt8]] {
            #expect(throws: SignalError.self) { try SignalMessage(bytes: bytes) }
            #expect(throws: SignalError.self) { try PreKeySignalMessage(bytes: bytes) }
            #expect(throws: SignalError.self) { try SenderKeyDistributionMessage(bytes: bytes) }
            #expect(throws: SignalError.self) { try SenderKeyMessage(bytes: bytes) }
            #expect(throws: SignalError.self) { try SessionRecord(bytes: [0xFF] + bytes) }
            #expect(throws: SignalError.self) { try SenderKeyRecord(bytes: [0xFF] + bytes) }
            #expect(throws: SignalError.self) { try PreKeyRecord(bytes: bytes) }
            #expect(throws: SignalError.self) { try SignedPreKeyRecord(bytes: bytes) }
            #expect(throws: SignalError.self) { try KyberPreKeyRecord(bytes: bytes) }
        }
    }

    @Test func versionBytesGiveDistinctErrors() throws {
        let whisper = try Self.sample().whisper
        #expect { try SignalMessage(bytes: [0x23] + whisper.dropFirst()) } throws: { error in
            if case SignalError.legacyCiphertextVersion = error { return true } else { return false }
        }
        #expect { try SignalMessage(bytes: [0x54] + whisper.dropFirst()) } throws: { error in
            if case SignalError.unrecognizedMessageVersion = error { return true } else { return false }
        }
    }

    @Test func corruptedMessagesNeverDecryptAndNeverBreakTheSession() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob)
        let valid = Array(try alice.encrypt("precious", to: bob).serialize())
        for bytes in Self.corruptions(of: valid) {
            #expect(throws: SignalError.self) { try bob.decrypt(bytes: bytes, type: .whisper, from: alice) }
        }
        #expect(try bob.decrypt(bytes: valid, type: .whisper, from: alice) == Array("precious".utf8))
    }

    @Test func corruptedPreKeyMessagesNeverSetUpASession() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(), from: bob)
        let valid = Array(try alice.encrypt("first", to: bob).serialize())
        for bytes in Self.corruptions(of: valid) where bytes != valid {
            _ = try? bob.decrypt(bytes: bytes, type: .preKey, from: alice)
        }
        #expect(try bob.decrypt(bytes: valid, type: .preKey, from: alice) == Array("first".utf8))
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let huge = [UInt8](repeating: 0x0A, count: ProtobufCoding.maximumMessageSize + 16)
        #expect(throws: SignalError.self) { try SessionRecord(bytes: huge) }
        #expect(throws: SignalError.self) { try SignalMessage(bytes: [0x33] + huge) }
    }

    @Test func preKeyMessageWithOnlyOneKEMFieldIsInvalid() throws {
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.process(try bob.bundle(), from: bob)
        let message = try PreKeySignalMessage(bytes: try alice.encrypt("x", to: bob).serialize())
        var body = Parley_Wire_PreKeySignalMessage()
        body.signedPreKeyID = message.signedPreKeyId
        body.baseKey = .init(message.baseKey.serialize())
        body.identityKey = .init(message.identityKey.serialize())
        body.message = .init(message.signalMessage.serialize())
        body.kyberPreKeyID = 1000
        let bytes: [UInt8] = [0x44] + (try body.serializedBytes() as [UInt8])
        #expect(throws: SignalError.self) { try PreKeySignalMessage(bytes: bytes) }
        // Version 3 framing around KEM fields is refused too.
        body.kyberCiphertext = .init(message.kyberCiphertext!)
        #expect(throws: SignalError.self) { try PreKeySignalMessage(bytes: [0x33] + (try body.serializedBytes() as [UInt8])) }
    }
}
