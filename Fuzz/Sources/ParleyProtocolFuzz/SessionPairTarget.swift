import FuzzHarness
import ParleyProtocol

/// A stateful target: Alice and Bob, with an established PQXDH session with SPQR, exchange messages in the order the
/// input dictates — sending, delivering out of order, dropping, corrupting and replaying. Invariants: a delivery
/// yields exactly the plaintext sent or an error; the oldest message in flight in a direction decrypts while its
/// sending chain is one the receiver can still read (the receiver keeps its last ``ProtocolLimits/maximumReceiverChains``
/// receiving chains, and a chain it never saw cannot be read once it has read a later one — as in libsignal); a
/// corrupted message never yields a different plaintext and leaves the session able to read the original; a message
/// already delivered is never accepted again.
enum SessionPairTarget {
    final class Party {
        let store: InMemorySignalProtocolStore
        let peer: ProtocolAddress
        /// Messages sent and not yet delivered or dropped, with the index of the sending chain each came from.
        var inFlight: [(bytes: [UInt8], plaintext: [UInt8], chain: Int)] = []
        var delivered: [[UInt8]] = []
        /// This party's sending chains (their ratchet keys), in the order it used them.
        var sendingChains: [[UInt8]] = []
        /// The peer's sending chains (indices) this party has read a message of, in the order first read: increasing,
        /// since a chain older than one already read cannot be read.
        var readChains: [Int] = []

        /// Notes that a message of the peer's sending chain `chain` was read.
        func read(chain: Int) {
            if !readChains.contains(chain) { readChains.append(chain) }
        }

        init(_ base: InMemorySignalProtocolStore, session: [UInt8], peer: ProtocolAddress, peerIdentity: IdentityKey) {
            let context = Fixtures.shared.context
            store = InMemorySignalProtocolStore(
                identity: try! base.identityKeyPair(context: context),
                registrationId: try! base.localRegistrationId(context: context))
            _ = try! store.saveIdentity(peerIdentity, for: peer, context: context)
            try! store.storeSession(try! SessionRecord(bytes: session), for: peer, context: context)
            self.peer = peer
        }
    }

    static let target = FuzzTarget(
        run: { input in
            let f = Fixtures.shared
            let context = f.context
            let aliceIdentity = try! f.alice.identityKeyPair(context: context).identityKey
            let bobIdentity = try! f.bob.identityKeyPair(context: context).identityKey
            // Alice's sender side and Bob's receiver side of the fixture's session, restored fresh for every input.
            let alice = Party(f.alice, session: f.sessionRecords[0], peer: f.bobAddress, peerIdentity: bobIdentity)
            let bob = Party(f.bob, session: f.sessionRecords[1], peer: f.aliceAddress, peerIdentity: aliceIdentity)
            var reader = ByteReader(input)
            var counter: UInt32 = 0
            var steps = 0
            while !reader.isExhausted && steps < 200 {
                steps += 1
                let op = reader.byte()
                let (sender, receiver) = op & 0x80 == 0 ? (alice, bob) : (bob, alice)
                switch op & 0x7F % 5 {
                case 0:
                    counter += 1
                    let plaintext = Array("message \(counter)".utf8)
                    let message = try! signalEncrypt(
                        message: plaintext, for: sender.peer, sessionStore: sender.store,
                        identityStore: sender.store, context: context)
                    invariant(message.messageType == .whisper, "an established session sends whisper messages")
                    let bytes = Array(message.serialize())
                    let ratchetKey = Array(try! SignalMessage(bytes: bytes).senderRatchetKey.serialize())
                    let chain = sender.sendingChains.firstIndex(of: ratchetKey) ?? sender.sendingChains.count
                    if chain == sender.sendingChains.count { sender.sendingChains.append(ratchetKey) }
                    sender.inFlight.append((bytes, plaintext, chain))
                case 1 where !sender.inFlight.isEmpty:
                    let position = Int(reader.byte()) % sender.inFlight.count
                    let message = sender.inFlight.remove(at: position)
                    let result = try? decrypt(message.bytes, by: receiver)
                    let readable =
                        receiver.readChains.suffix(ProtocolLimits.maximumReceiverChains).contains(message.chain)
                        || !receiver.readChains.contains { $0 > message.chain }
                    if position == 0 && readable {
                        invariant(result == message.plaintext, "the oldest message in flight decrypts while its chain can be read")
                    } else {
                        invariant(result == nil || result == message.plaintext, "a delivery yields the plaintext sent or an error")
                    }
                    if result != nil {
                        receiver.delivered.append(message.bytes)
                        receiver.read(chain: message.chain)
                    }
                case 2 where !sender.inFlight.isEmpty:
                    _ = sender.inFlight.remove(at: Int(reader.byte()) % sender.inFlight.count)
                case 3 where !sender.inFlight.isEmpty:
                    let position = Int(reader.byte()) % sender.inFlight.count
                    var corrupted = sender.inFlight[position].bytes
                    let offset = Int(reader.byte()) % corrupted.count
                    let flip = reader.byte() | 1
                    corrupted[offset] ^= flip
                    let result = try? decrypt(corrupted, by: receiver)
                    invariant(
                        result == nil || result == sender.inFlight[position].plaintext, "a corrupted message yields no other plaintext")
                    if result != nil {
                        receiver.read(chain: sender.inFlight[position].chain)
                        _ = sender.inFlight.remove(at: position)
                    }
                case 4 where !receiver.delivered.isEmpty:
                    let replay = receiver.delivered[Int(reader.byte()) % receiver.delivered.count]
                    invariant((try? decrypt(replay, by: receiver)) == nil, "a delivered message is not accepted again")
                default:
                    break
                }
            }
        }, seeds: { [[0, 0, 1, 0, 0x80, 1, 0, 0, 0, 3, 0, 5, 1, 1, 0, 1, 0, 4, 0], [0, 0, 0, 1, 2, 2, 1, 0, 0x80, 0x81, 0]] })

    private static func decrypt(_ bytes: [UInt8], by receiver: Party) throws -> [UInt8] {
        Array(
            try signalDecrypt(
                message: try SignalMessage(bytes: bytes), from: receiver.peer, sessionStore: receiver.store,
                identityStore: receiver.store, context: Fixtures.shared.context))
    }
}
