import Testing

@testable import ParleyProtocol

/// Two parties send in random order; the network reorders and drops messages.
/// Everything delivered must decrypt to what was sent, except a message whose chain the receiver
/// has already evicted (it keeps the newest ``ProtocolLimits/maximumReceiverChains``): that one must
/// fail cleanly and leave the session working.
@Suite struct RandomizedConversationTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct InFlight {
        let message: CiphertextMessage
        let plaintext: [UInt8]
        var ratchetKey: PublicKey { try! SignalMessage(bytes: message.serialize()).senderRatchetKey }
    }

    /// Delivers one message; returns whether it was within bounds (and so decrypted).
    static func deliver(_ item: InFlight, from sender: TestParty, to receiver: TestParty, seen: inout Set<PublicKey>) throws -> Bool {
        let key = item.ratchetKey
        let chains =
            try receiver.session(with: sender)?.currentState?.structure.receiverChains.map { try PublicKey($0.senderRatchetKey) } ?? []
        if seen.contains(key), !chains.contains(key) {
            #expect(throws: SignalError.self) { try receiver.decrypt(item.message, from: sender) }
            return false
        }
        #expect(try receiver.decrypt(item.message, from: sender) == item.plaintext)
        seen.insert(key)
        return true
    }

    @Test(arguments: [(KEMKeyType?.none, UInt64(1)), (.none, 2), (.kyber1024, 3), (.kyber1024, 4), (.mlkem1024, 5)])
    func randomOrderReorderingAndDropsAlwaysDecrypt(kem: KEMKeyType?, seed: UInt64) throws {
        var random = Generator(state: seed)
        let alice = TestParty("alice")
        let bob = TestParty("bob")
        try alice.establish(with: bob, kem: kem)
        var toBob: [InFlight] = []
        var toAlice: [InFlight] = []
        var delivered = 0
        var bobSeen = Set<PublicKey>()
        var aliceSeen = Set<PublicKey>()
        for step in 0..<600 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                let text = (0..<Int.random(in: 0..<80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                toBob.append(InFlight(message: try alice.encrypt(text, to: bob), plaintext: text))
            case 2, 3:
                let text = Array("b\(step)".utf8)
                toAlice.append(InFlight(message: try bob.encrypt(text, to: alice), plaintext: text))
            case 4 where !toBob.isEmpty:
                let item = toBob.remove(at: Int.random(in: 0..<toBob.count, using: &random))
                if Int.random(in: 0..<10, using: &random) == 0 { continue }  // dropped
                if try Self.deliver(item, from: alice, to: bob, seen: &bobSeen) { delivered += 1 }
            case 5 where !toAlice.isEmpty:
                let item = toAlice.remove(at: Int.random(in: 0..<toAlice.count, using: &random))
                if Int.random(in: 0..<10, using: &random) == 0 { continue }
                if try Self.deliver(item, from: bob, to: alice, seen: &aliceSeen) { delivered += 1 }
            default:
                continue
            }
        }
        for item in toBob.shuffled(using: &random) { _ = try Self.deliver(item, from: alice, to: bob, seen: &bobSeen) }
        for item in toAlice.shuffled(using: &random) { _ = try Self.deliver(item, from: bob, to: alice, seen: &aliceSeen) }
        #expect(try bob.decrypt(try alice.encrypt("still working", to: bob), from: alice) == Array("still working".utf8))
        #expect(delivered > 100)
    }
}
