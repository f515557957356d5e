import Foundation
import Testing

@testable import ParleyProtocol

enum UUIDs {
    static let group = UUID(uuidString: "6F2A3C1E-0B8D-4E57-9A21-3C4D5E6F7081")!
    static let other = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!
}

@Suite struct SenderKeyTests {
    let alice = TestParty("alice"), bob = TestParty("bob")

    func distribute() throws {
        let skdm = try SenderKeyDistributionMessage(
            from: alice.address, distributionId: UUIDs.group, store: alice.store, context: alice.context)
        let parsed = try SenderKeyDistributionMessage(bytes: skdm.serialize())
        #expect(parsed.serialize().first == 0x33)
        try processSenderKeyDistributionMessage(
            parsed, from: alice.address, distributionId: UUIDs.group, store: bob.store, context: bob.context)
    }

    func send(_ text: String) throws -> [UInt8] {
        Array(
            try groupEncrypt(Array(text.utf8), from: alice.address, distributionId: UUIDs.group, store: alice.store, context: alice.context)
                .serialize())
    }

    func receive(_ bytes: [UInt8], distributionId: UUID = UUIDs.group) throws -> String {
        String(
            decoding: try groupDecrypt(bytes, from: alice.address, distributionId: distributionId, store: bob.store, context: bob.context),
            as: UTF8.self)
    }

    @Test func groupMessagesDecryptInAnyOrderOnce() throws {
        try distribute()
        let messages = try (0..<10).map { try send("m\($0)") }
        for index in [0, 1, 2, 9, 5, 8, 3, 4, 7, 6] { #expect(try receive(messages[index]) == "m\(index)") }
        #expect { try receive(messages[4]) } throws: { error in
            if case SignalError.duplicatedMessage = error { return true } else { return false }
        }
    }

    @Test func repeatedDistributionMessageDoesNotRewindTheChain() throws {
        let skdm = try SenderKeyDistributionMessage(
            from: alice.address, distributionId: UUIDs.group, store: alice.store, context: alice.context)
        try processSenderKeyDistributionMessage(
            skdm, from: alice.address, distributionId: UUIDs.group, store: bob.store, context: bob.context)
        let first = try send("first")
        let second = try send("second")
        #expect(try receive(first) == "first")
        try processSenderKeyDistributionMessage(
            skdm, from: alice.address, distributionId: UUIDs.group, store: bob.store, context: bob.context)
        #expect { try receive(first) } throws: { error in
            if case SignalError.duplicatedMessage = error { return true } else { return false }
        }
        #expect(try receive(second) == "second")
    }

    @Test func tamperedSignatureIsRejectedBeforeDecryption() throws {
        try distribute()
        let message = try send("signed")
        var tampered = message
        tampered[tampered.count - 1] ^= 1
        #expect { try receive(tampered) } throws: { error in
            if case SignalError.invalidSignature = error { return true } else { return false }
        }
        #expect(try receive(message) == "signed")
    }

    @Test func unknownGroupHasNoSession() throws {
        try distribute()
        #expect { try receive(try send("x"), distributionId: UUIDs.other) } throws: { error in
            if case SignalError.invalidSenderKeySession = error { return true } else { return false }
        }
        #expect(throws: SignalError.self) {
            try groupEncrypt([1], from: bob.address, distributionId: UUIDs.group, store: bob.store, context: bob.context)
        }
    }

    @Test func farJumpIsRefusedAndSkippedKeysBounded() throws {
        try distribute()
        var messages: [[UInt8]] = []
        for index in 0..<(ProtocolLimits.maximumMessageKeys + 5) { messages.append(try send("\(index)")) }
        #expect(try receive(messages.last!) == "\(messages.count - 1)")
        let state = try #require(
            try bob.store.loadSenderKey(from: alice.address, distributionId: UUIDs.group, context: bob.context)?.states.first)
        #expect(state.structure.senderMessageKeys.count == ProtocolLimits.maximumMessageKeys)
        #expect(throws: SignalError.self) { try receive(messages[0]) }
    }

    @Test func keysSkippedByTwoJumpsKeepTheNewestAcrossBoth() throws {
        try distribute()
        var messages: [[UInt8]] = []
        for index in 0..<3_000 { messages.append(try send("\(index)")) }
        #expect(try receive(messages[1_000]) == "1000")  // keeps 0…999
        #expect(try receive(messages[2_999]) == "2999")  // keeps 1001…2998, dropping 0…997
        let state = try #require(
            try bob.store.loadSenderKey(from: alice.address, distributionId: UUIDs.group, context: bob.context)?.states.first)
        #expect(state.structure.senderMessageKeys.count == ProtocolLimits.maximumMessageKeys)
        #expect(state.structure.senderMessageKeys.first?.iteration == 998)
        #expect(throws: SignalError.self) { try receive(messages[997]) }
        for late in [998, 999, 1_001, 2_998] { #expect(try receive(messages[late]) == "\(late)") }
    }

    @Test func recordSerializationRoundTrips() throws {
        try distribute()
        let record = try #require(try bob.store.loadSenderKey(from: alice.address, distributionId: UUIDs.group, context: bob.context))
        #expect(try SenderKeyRecord(bytes: record.serialize()).serialize() == record.serialize())
    }
}
