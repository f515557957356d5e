import Foundation
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
        var aliceKinds: [SPQRMessage.Kind] = []
        var bobKinds: [SPQRMessage.Kind] = []
        var aliceChunks: [Int] = []
        var bobChunks: [Int] = []
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
        let expectedAlice: [SPQRMessage.Kind] =
            Array(repeating: .header, count: 3) + Array(repeating: .encapsulationKey, count: 29)
            + Array(repeating: .encapsulationKeyWithCiphertext1Ack, count: 7)
        #expect(Array(aliceKinds.prefix(expectedAlice.count)) == expectedAlice)
        #expect(aliceKinds.dropFirst(expectedAlice.count).allSatisfy { $0 == .ciphertext1Ack })
        #expect(Array(aliceChunks.prefix(39)) == Array(0...2) + Array(0...35))
        let expectedBob: [SPQRMessage.Kind] =
            [.none, .none] + Array(repeating: .ciphertext1, count: 30) + Array(repeating: .none, count: 6)
            + Array(repeating: .ciphertext2, count: 5)
        #expect(Array(bobKinds.prefix(expectedBob.count)) == expectedBob)
        #expect(Array(bobChunks.prefix(35)) == Array(0...29) + Array(0...4))
        #expect(alice.state.epoch >= 3 && bob.state.epoch >= 3)
    }

    @Test func theFirstMessagesMatchTheChainVectorsAndTheNotes() throws {
        let vectors = SPQRBuildingBlockTests.vectors.chain
        var alice = SPQRState(authKey: [UInt8](hex: vectors.auth_key), isInitiator: true)
        var bob = SPQRState(authKey: [UInt8](hex: vectors.auth_key), isInitiator: false)
        let first = try alice.send()
        #expect(first.message.epoch == 1 && first.message.index == 1 && first.message.kind == .header && first.message.chunk?.index == 0)
        #expect(first.key == [UInt8](hex: vectors.start.a2b_keys[0]))
        #expect(try bob.receive(first.message.serialize()) == first.key)
        let reply = try bob.send()
        #expect(reply.message.serialize() == [1, 1, 1, 0])  // a None at epoch 1, index 1: 4 bytes
        #expect(reply.key == [UInt8](hex: vectors.start.b2a_keys[0]))
        // Index 0 has no key only in epoch 1 (link 0); elsewhere it was never sent and fails.
        var scratch = bob
        #expect(try scratch.receive(SPQRMessage(epoch: 1, index: 0, kind: .none).serialize()) == nil)
        #expect(throws: SPQRError.self) { _ = try scratch.receive([1, 1, 1, 0]) }  // index 1 again: already used
    }

    @Test func laterEpochsSwapRolesRestartIndicesAndKeepOneEpochBack() throws {
        var (alice, bob) = Self.pair()
        var heldBack: Sent?
        var deliveredLate = false
        var epochTwoKinds: [(fromAlice: Bool, kind: SPQRMessage.Kind, index: UInt32)] = []
        for round in 0..<200 {
            let a = try alice.send()
            if a.message.epoch == 2, heldBack == nil { heldBack = a } else { #expect(try bob.receive(a) == a.key, "round \(round)") }
            let b = try bob.send()
            #expect(try alice.receive(b) == b.key)
            if a.message.epoch == 2 { epochTwoKinds.append((true, a.message.kind, a.message.index)) }
            if b.message.epoch == 2 { epochTwoKinds.append((false, b.message.kind, b.message.index)) }
            // A message of epoch 2 held back until both sides are in epoch 3 still decrypts (one epoch back is kept).
            if let late = heldBack, !deliveredLate, alice.state.epoch == 3, bob.state.epoch == 3 {
                #expect(try bob.receive(late) == late.key)
                deliveredLate = true
            }
        }
        // Epoch 2: Bob sends the key, Alice the ciphertext; indices restart at 1.
        #expect(epochTwoKinds.first { !$0.fromAlice }?.kind == .header)
        #expect(epochTwoKinds.contains { $0.fromAlice && $0.kind == .ciphertext1 })
        #expect(!epochTwoKinds.contains { $0.fromAlice && $0.kind == .header })
        #expect(epochTwoKinds.first { $0.fromAlice }?.index == 1 && epochTwoKinds.first { !$0.fromAlice }?.index == 1)
        #expect(deliveredLate && alice.state.epoch >= 4 && bob.state.epoch >= 4)
    }

    /// A tampered header, key or ciphertext chunk poisons its payload: the message that completes it fails (in a
    /// session its MAC would have refused the tampered message first; this checks SPQR's own checks). A copy of the
    /// receiver takes the tampered chunk and then the same genuine messages as the real receiver.
    @Test func tamperedPayloadsFailTheirChecksWhenComplete() throws {
        func tampered(_ sent: Sent) -> Sent {
            var bytes = sent.message.chunk!.bytes
            bytes[5] ^= 0x40
            let message = SPQRMessage(
                epoch: sent.message.epoch, index: sent.message.index, kind: sent.message.kind,
                chunk: SPQRMessage.Chunk(index: sent.message.chunk!.index, bytes: bytes))
            return Sent(bytes: message.serialize(), key: [], message: message)
        }
        for target in [SPQRMessage.Kind.header, .encapsulationKey, .ciphertext2] {
            var (alice, bob) = Self.pair()
            var poisoned: Party?
            var poisonedIsBob = false
            var caught = false
            for _ in 0..<150 where !caught {
                for fromAlice in [true, false] where !caught {
                    let sent = fromAlice ? try alice.send() : try bob.send()
                    if poisoned == nil, sent.message.kind == target {
                        var copy = fromAlice ? bob : alice
                        poisonedIsBob = fromAlice
                        do { _ = try copy.receive(tampered(sent)) } catch { caught = true }
                        poisoned = copy
                    } else if var copy = poisoned, poisonedIsBob == fromAlice {
                        do { _ = try copy.receive(sent) } catch { caught = true }
                        poisoned = copy
                    }
                    if fromAlice { _ = try bob.receive(sent) } else { _ = try alice.receive(sent) }
                }
            }
            #expect(caught, "a tampered \(target) chunk was not caught")
        }
    }

    /// While an encapsulation is pending, the record keeps its five polynomials (û, e2, μ) as big-endian 16-bit
    /// coefficients, and loading then storing gives the same structure.
    @discardableResult
    static func expectPendingStoredBigEndian(_ state: SPQRState) throws -> Bool {
        let stored = state.structure
        #expect(try SPQRState(structure: stored).structure == stored)
        let pending: IncrementalMLKEM768.PendingEncapsulation
        switch state.exchange.state {
        case .ciphertext1Sampled(let e, _), .keyReceivedCiphertext1Sampled(let e, _), .ciphertext1Acknowledged(let e, _):
            pending = e.pending
        default: return false
        }
        let coefficients = (pending.yHat + [pending.e2, pending.mu]).flatMap(\.coefficients)
        let bytes = Array(stored.pending)
        #expect(bytes.count == coefficients.count * 2)
        #expect(stride(from: 0, to: bytes.count, by: 2).map { UInt32(bytes[$0]) << 8 | UInt32(bytes[$0 + 1]) } == coefficients)
        return true
    }

    @Test func everyStateSurvivesTheSessionRecordRoundTrip() throws {
        var (alice, bob) = Self.pair()
        func reload(_ party: inout Party) throws {
            let bytes: [UInt8] = try party.state.structure.serializedBytes()
            party.state = try SPQRState(structure: Parley_Storage_SPQRStateStructure(serializedBytes: bytes))
        }
        var states = Set<UInt32>()
        var pendingChecked = 0
        for _ in 0..<160 {
            try reload(&alice)
            try reload(&bob)
            states.insert(alice.state.structure.state)
            states.insert(bob.state.structure.state)
            for party in [alice, bob] where try Self.expectPendingStoredBigEndian(party.state) { pendingChecked += 1 }
            let a = try alice.send()
            try reload(&alice)
            #expect(try bob.receive(a) == a.key)
            try reload(&bob)
            let b = try bob.send()
            #expect(try alice.receive(b) == b.key)
        }
        #expect(alice.state.epoch >= 3 && states.count >= 9, "states seen: \(states.sorted())")
        // The states that keep a pending encapsulation were among them, and their stored form was checked.
        #expect(states.isSuperset(of: [7, 9]) && pendingChecked > 0, "states seen: \(states.sorted())")
        // Damaged records are refused, not trusted.
        var damaged = alice.state.structure
        damaged.state = 11
        #expect(throws: SignalError.self) { try SPQRState(structure: damaged) }
        damaged = alice.state.structure
        damaged.nextRoot = Data([1, 2, 3])
        #expect(throws: SignalError.self) { try SPQRState(structure: damaged) }
        damaged = alice.state.structure
        damaged.epoch = 0
        #expect(throws: SignalError.self) { try SPQRState(structure: damaged) }
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
