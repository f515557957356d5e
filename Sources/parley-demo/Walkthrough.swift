import Foundation
import ParleyProtocol

/// The scripted conversation of the demo, printed as a transcript.
struct Walkthrough {
    func run() throws {
        let alice = try DemoParty("alice")
        let bob = try DemoParty("bob")
        var wire = WireLog()
        print("Parley protocol walkthrough (ParleyProtocol, pure Swift)\n")

        print("1. Bob publishes a prekey bundle")
        let bundle = try bob.publishBundle()
        print(
            "  identity \(shortHex(bundle.identityKey.serialize())), signed prekey #\(bundle.signedPreKeyId),"
                + " one-time prekey #\(bundle.preKeyId ?? 0),")
        print(
            "  Kyber prekey #\(bundle.kyberPreKeyId ?? 0): type 0x0\(String(bundle.kyberPreKeyPublic!.keyType.rawValue, radix: 16)) (round-3 Kyber1024),"
                + " \(bundle.kyberPreKeyPublic!.serialize().count) bytes, XEdDSA-signed by Bob's identity")

        print("\n2. Alice verifies both signatures and runs PQXDH (X25519 ×4 + Kyber1024 encapsulation)")
        try processPreKeyBundle(bundle, for: bob.address, sessionStore: alice.store, identityStore: alice.store, context: alice.context)
        let aliceRecord = try alice.store.loadSession(for: bob.address, context: alice.context)
        print("  session version \(aliceRecord?.sessionVersion ?? 0); Alice's messages carry the setup until Bob answers")

        print("\n3. Alice sends three messages; the network delivers them out of order")
        let sent = try ["Hi Bob — this session is post-quantum.", "Second message.", "Third message."].map { text in
            let message = try alice.encrypt(text, to: bob)
            wire.record(message, from: "alice", to: "bob")
            return (text, message)
        }
        for index in [2, 0, 1] {
            let text = try bob.decrypt(sent[index].1, from: alice)
            print("  bob decrypts #\(index + 1) (arrived \(index == 2 ? "first" : "late")): \"\(text)\"")
        }

        print("\n4. Bob answers; each change of direction is a Diffie-Hellman ratchet step")
        for turn in 0..<4 {
            let (sender, receiver) = turn % 2 == 0 ? (bob, alice) : (alice, bob)
            let message = try sender.encrypt("turn \(turn + 1) from \(sender.name)", to: receiver)
            let ratchetKey = try SignalMessage(bytes: message.serialize()).senderRatchetKey
            wire.record(message, from: sender.name, to: receiver.name, note: "ratchet key \(shortHex(ratchetKey.keyBytes, count: 4))")
            _ = try receiver.decrypt(message, from: sender)
        }

        try runSPQREpochs(alice, bob, wire: &wire)

        print("\n5. A replayed message is refused")
        do {
            _ = try bob.decrypt(sent[0].1, from: alice)
            print("  (unexpected) the replay decrypted")
        } catch let error as SignalError {
            print("  bob: \(error)")
        }

        try compareSafetyNumbers(alice, bob)
        try sendGroupMessage(alice, bob, wire: &wire)
        print("\n\(wire.count) messages crossed the wire; every one decrypted exactly once.")
    }

    /// SPQR beside the Double Ratchet: each message's pq_ratchet carries one 32-byte chunk of the epoch's ML-KEM-768
    /// exchange; printed as runs per epoch and direction until two epochs completed.
    private func runSPQREpochs(_ alice: DemoParty, _ bob: DemoParty, wire: inout WireLog) throws {
        print("\n4b. The SPQR (triple) ratchet: every message also carries one chunk of a post-quantum KEM exchange")
        var runs: [String: [(kind: SPQRMessage.Kind, chunk: Int?)]] = [:]
        var order: [String] = []
        var completed: [UInt64: Int] = [:]
        var sent = 0
        while (try alice.store.loadSession(for: bob.address, context: alice.context)?.spqrEpoch ?? 0) < 3 && sent < 400 {
            for (sender, receiver) in [(alice, bob), (bob, alice)] {
                let message = try sender.encrypt("message \(sent)", to: receiver)
                let signal =
                    message.messageType == .preKey
                    ? try PreKeySignalMessage(bytes: message.serialize()).signalMessage
                    : try SignalMessage(bytes: message.serialize())
                let ratchet = try SPQRMessage(bytes: signal.pqRatchet)
                let key = "epoch \(ratchet.epoch): \(sender.name)"
                if runs[key] == nil { order.append(key) }
                runs[key, default: []].append((ratchet.kind, ratchet.chunk?.index))
                _ = try receiver.decrypt(message, from: sender)
                sent += 1
                let epoch = try receiver.store.loadSession(for: sender.address, context: receiver.context)?.spqrEpoch ?? 0
                if epoch > 1, completed[epoch - 1] == nil { completed[epoch - 1] = sent }
            }
        }
        print("  (epoch 1 began with the messages above: Alice's first carried header chunk 0)")
        wire.recordQuietly(sent)
        for key in order where !key.hasPrefix("epoch 3") {
            print("  \(key) → \(Self.describe(runs[key] ?? []))")
        }
        for (epoch, count) in completed.sorted(by: { $0.key < $1.key }) where epoch <= 2 {
            print(
                "  epoch \(epoch) complete after \(count) messages: its ML-KEM-768 secret starts a new key chain, and from then on"
                    + " every message key is salted by it (the sender of the key and of the ciphertext swap each epoch)")
        }
    }

    /// `Hdr 0–2, Ek 0–28, Ct1Ack ×4`: consecutive messages of one kind as one run.
    private static func describe(_ messages: [(kind: SPQRMessage.Kind, chunk: Int?)]) -> String {
        let names: [SPQRMessage.Kind: String] = [
            .none: "None", .header: "Hdr", .encapsulationKey: "Ek", .encapsulationKeyWithCiphertext1Ack: "EkCt1Ack",
            .ciphertext1Ack: "Ct1Ack", .ciphertext1: "Ct1", .ciphertext2: "Ct2",
        ]
        var parts: [String] = []
        var index = 0
        while index < messages.count {
            var end = index
            while end + 1 < messages.count, messages[end + 1].kind == messages[index].kind { end += 1 }
            let name = names[messages[index].kind] ?? "?"
            if let first = messages[index].chunk, let last = messages[end].chunk {
                parts.append(first == last ? "\(name) \(first)" : "\(name) \(first)–\(last)")
            } else {
                parts.append(end == index ? name : "\(name) ×\(end - index + 1)")
            }
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }

    private func compareSafetyNumbers(_ alice: DemoParty, _ bob: DemoParty) throws {
        print("\n6. Both compare safety numbers (5200 SHA-512 iterations per side)")
        let generator = NumericFingerprintGenerator(iterations: 5200)
        let aliceView = try generator.create(
            version: 1, localIdentifier: Array("alice".utf8), localKey: try alice.identity.publicKey,
            remoteIdentifier: Array("bob".utf8), remoteKey: try bob.identity.publicKey)
        let bobView = try generator.create(
            version: 1, localIdentifier: Array("bob".utf8), localKey: try bob.identity.publicKey,
            remoteIdentifier: Array("alice".utf8), remoteKey: try alice.identity.publicKey)
        print(aliceView.displayable.grouped.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
        print(
            "  same on both devices: \(aliceView.displayable == bobView.displayable);"
                + " QR scan matches: \(try aliceView.scannable.compare(against: bobView.scannable))")
    }

    private func sendGroupMessage(_ alice: DemoParty, _ bob: DemoParty, wire: inout WireLog) throws {
        print("\n7. Alice starts a group chat: her sender key goes to Bob over their 1:1 session")
        let group = UUID()
        let distribution = try SenderKeyDistributionMessage(
            from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        let carried = try alice.encrypt(bytes: Array(distribution.serialize()), to: bob)
        wire.record(
            carried, from: "alice", to: "bob", note: "carries the SenderKeyDistributionMessage (\(distribution.serialize().count) bytes)")
        let received = try SenderKeyDistributionMessage(bytes: try bob.decryptBytes(carried, from: alice))
        try processSenderKeyDistributionMessage(
            received, from: alice.address, distributionId: group, store: bob.store, context: bob.context)
        let groupMessage = try groupEncrypt(
            Array("Hello, group!".utf8), from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        wire.record(groupMessage, from: "alice", to: "group", note: "one encryption for every member, XEdDSA-signed")
        let text = try groupDecrypt(
            groupMessage.serialize(), from: alice.address, distributionId: group, store: bob.store, context: bob.context)
        print("  bob reads: \"\(String(decoding: text, as: UTF8.self))\"")
    }
}
