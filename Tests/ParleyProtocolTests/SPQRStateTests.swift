import Testing
@testable import ParleyProtocol

/// SPQR V1 end to end between two in-memory parties, in the spirit of the SPQR design's scenarios: lockstep,
/// one-sided bursts, heavy loss, reordering, both sides sending at once. Keys always agree and epochs complete.
/// (No known answers exist for the whole exchange: agreement with libsignal needs a live libsignal peer.)
@Suite struct SPQRStateTests {
    struct Sent {
        let bytes: [UInt8]
        let key: [UInt8]
        let message: SPQRMessage
    }

    struct Party {
        var state: SPQRState

        mutating func send() throws -> Sent {
            let (message, key) = try state.send()
            return Sent(bytes: message.serialize(), key: key, message: message)
        }

        /// Receives like a session: on a copy, committed only when it worked.
        mutating func receive(_ sent: Sent) throws -> [UInt8]? {
            var next = state
            let key = try next.receive(sent.bytes)
            state = next
            return key
        }
    }

    static func pair() -> (alice: Party, bob: Party) {
        let authKey = SecureRandom.bytes(32)
        return (Party(state: SPQRState(authKey: authKey, isInitiator: true)), Party(state: SPQRState(authKey: authKey, isInitiator: false)))
    }

    @Test func lockstepFollowsThePayloadOrderAndKeysAgree() throws {
        var (alice, bob) = Self.pair()
        var aliceKinds: [SPQRMessage.Kind] = [], bobKinds: [SPQRMessage.Kind] = []
        var aliceChunks: [Int] = [], bobChunks: [Int] = []
        for _ in 0..<150 {
            let fromAlice = try alice.send()
            #expect(try bob.receive(fromAlice) == fromAlice.key)
            let fromBob = try bob.send()
            #expect(try alice.receive(fromBob) == fromBob.key)
            if fromAlice.message.epoch == 1 {
                aliceKinds.append(fromAlice.message.kind)
                if let chunk = fromAlice.message.chunk { aliceChunks.append(chunk.index) }
            }
            if fromBob.message.epoch == 1 {
                bobKinds.append(fromBob.message.kind)
                if let chunk = fromBob.message.chunk { bobChunks.append(chunk.index) }
            }
        }
        // Epoch 1 as PROTOCOL.md describes lockstep: Alice Hdr 0–2, Ek 0–28, EkCt1Ack 29–35, then Ct1Ack; Bob None,
        // None, Ct1 0–29, None × 6, Ct2 0–4.
        let expectedAlice: [SPQRMessage.Kind] = Array(repeating: .header, count: 3) + Array(repeating: .encapsulationKey, count: 29)
            + Array(repeating: .encapsulationKeyWithCiphertext1Ack, count: 7)
        #expect(Array(aliceKinds.prefix(expectedAlice.count)) == expectedAlice)
        #expect(aliceKinds.dropFirst(expectedAlice.count).allSatisfy { $0 == .ciphertext1Ack })
        #expect(Array(aliceChunks.prefix(39)) == Array(0...2) + Array(0...35))
        let expectedBob: [SPQRMessage.Kind] = [.none, .none] + Array(repeating: .ciphertext1, count: 30) + Array(repeating: .none, count: 6)
            + Array(repeating: .ciphertext2, count: 5)
        #expect(Array(bobKinds.prefix(expectedBob.count)) == expectedBob)
        #expect(Array(bobChunks.prefix(35)) == Array(0...29) + Array(0...4))
        #expect(alice.state.epoch >= 3 && bob.state.epoch >= 3)
    }

    @Test func oneSidedBurstsPassFarBeyondTheSystematicChunks() throws {
        var (alice, bob) = Self.pair()
        for (burst, fromAlice) in [(200, true), (200, false), (200, true), (60, false), (60, true), (200, false)] {
            for _ in 0..<burst {
                if fromAlice {
                    let sent = try alice.send()
                    #expect(try bob.receive(sent) == sent.key)
                } else {
                    let sent = try bob.send()
                    #expect(try alice.receive(sent) == sent.key)
                }
            }
        }
        for _ in 0..<100 {
            let a = try alice.send()
            #expect(try bob.receive(a) == a.key)
            let b = try bob.send()
            #expect(try alice.receive(b) == b.key)
        }
        #expect(alice.state.epoch >= 3 && bob.state.epoch >= 3)
    }

    @Test func lossReorderingAndSimultaneousSendingStillAgree() throws {
        var (alice, bob) = Self.pair()
        var generator = SystemRandomNumberGenerator()
        var delivered = 0
        for _ in 0..<400 {
            // Both sides send a batch at once; each batch arrives shuffled with a tenth of it lost.
            let fromAlice = try (0..<Int.random(in: 1...8, using: &generator)).map { _ in try alice.send() }
            let fromBob = try (0..<Int.random(in: 1...8, using: &generator)).map { _ in try bob.send() }
            for sent in fromAlice.shuffled(using: &generator) where Int.random(in: 0..<10, using: &generator) > 0 {
                #expect(try bob.receive(sent) == sent.key)
                delivered += 1
            }
            for sent in fromBob.shuffled(using: &generator) where Int.random(in: 0..<10, using: &generator) > 0 {
                #expect(try alice.receive(sent) == sent.key)
                delivered += 1
            }
            if alice.state.epoch >= 4 && bob.state.epoch >= 4 { break }
        }
        #expect(alice.state.epoch >= 3 && bob.state.epoch >= 3, "epochs complete despite loss (\(delivered) delivered)")
    }

    @Test func lostSystematicChunksAreRebuiltFromParity() throws {
        var (alice, bob) = Self.pair()
        for _ in 0..<200 {
            let a = try alice.send()
            if ![0, 2].contains(a.message.chunk?.index) { #expect(try bob.receive(a) == a.key) }
            let b = try bob.send()
            if ![0, 2].contains(b.message.chunk?.index) { #expect(try alice.receive(b) == b.key) }
        }
        #expect(alice.state.epoch >= 3 && bob.state.epoch >= 3)
    }

    /// In a session the SignalMessage's MAC covers `pq_ratchet`, so a tampered message is refused and its SPQR
    /// state dropped; here each tampered or random input is tried on a scratch copy, as the session does.
    @Test func malformedAndTamperedInputsNeverCrashAndRefusalsKeepTheState() throws {
        var (alice, bob) = Self.pair()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<120 {
            let sent = try alice.send()
            for _ in 0..<10 {
                var tampered = sent.bytes
                tampered[Int.random(in: 0..<tampered.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
                var scratch = bob.state
                _ = try? scratch.receive(tampered)
                let noise = (0..<Int.random(in: 0...60, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = try? scratch.receive([1] + noise)
            }
            var scratch = bob.state
            #expect(throws: SPQRError.self) { _ = try scratch.receive([]) }  // version 0: below the minimum V1
            #expect(try scratch.receive([2] + sent.bytes.dropFirst()) == nil)  // a newer version: no key
            let tooNew = SPQRMessage(epoch: sent.message.epoch + 5, index: 1, kind: .none)
            #expect(throws: SPQRError.self) { _ = try scratch.receive(tooNew.serialize()) }
            #expect(try bob.receive(sent) == sent.key)
            let reply = try bob.send()
            #expect(try alice.receive(reply) == reply.key)
        }
        #expect(alice.state.epoch >= 2 && bob.state.epoch >= 2)
    }
}
