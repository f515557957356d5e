import FuzzHarness
import ParleyProtocol

/// The 1:1 and group wire messages: parse, and whatever parses serializes to bytes that parse again.
enum WireMessageTargets {
    static let preKeySignalMessage = FuzzTarget(
        run: { input in
            guard let message = try? PreKeySignalMessage(bytes: input) else { return }
            invariant((try? PreKeySignalMessage(bytes: message.serialize())) != nil, "a parsed PreKeySignalMessage re-parses")
            // Bob's real stores: a hostile pre-key message must be refused or decrypted, never crash or corrupt them.
            let f = Fixtures.shared
            let bob = ReadOnlyStore(f.bob)
            _ = try? signalDecryptPreKey(
                message: message, from: f.aliceAddress, sessionStore: bob, identityStore: bob, preKeyStore: bob,
                signedPreKeyStore: bob, kyberPreKeyStore: bob, context: f.context)
        }, seeds: { [Fixtures.shared.preKeyMessage] })

    static let signalMessage = FuzzTarget(
        run: { input in
            guard let message = try? SignalMessage(bytes: input) else { return }
            invariant((try? SignalMessage(bytes: message.serialize())) != nil, "a parsed SignalMessage re-parses")
            let f = Fixtures.shared
            let bob = ReadOnlyStore(f.bob)
            _ = try? signalDecrypt(message: message, from: f.aliceAddress, sessionStore: bob, identityStore: bob, context: f.context)
        }, seeds: { Fixtures.shared.whisperMessages })

    static let senderKeyMessage = FuzzTarget(
        run: { input in
            guard let message = try? SenderKeyMessage(bytes: input) else { return }
            invariant((try? SenderKeyMessage(bytes: message.serialize())) != nil, "a parsed SenderKeyMessage re-parses")
            let f = Fixtures.shared
            let store = InMemorySignalProtocolStore()
            _ = try? processSenderKeyDistributionMessage(
                try SenderKeyDistributionMessage(bytes: f.senderKeyDistribution), from: f.aliceAddress,
                distributionId: f.distributionId, store: store, context: f.context)
            _ = try? groupDecrypt(input, from: f.aliceAddress, distributionId: f.distributionId, store: store, context: f.context)
            _ = try? groupDecrypt(input, from: f.aliceAddress, store: store, context: f.context)
        }, seeds: { [Fixtures.shared.senderKeyMessage, Fixtures.shared.senderKeyMessageC] })

    static let senderKeyDistributionMessage = FuzzTarget(
        run: { input in
            guard let message = try? SenderKeyDistributionMessage(bytes: input) else { return }
            invariant((try? SenderKeyDistributionMessage(bytes: message.serialize())) != nil, "a parsed distribution message re-parses")
            let f = Fixtures.shared
            let store = InMemorySignalProtocolStore()
            _ = try? processSenderKeyDistributionMessage(
                message, from: f.aliceAddress, distributionId: f.distributionId, store: store,
                context: f.context)
            _ = try? processSenderKeyDistributionMessage(message, from: f.aliceAddress, store: store, context: f.context)
        }, seeds: { [Fixtures.shared.senderKeyDistribution, Fixtures.shared.senderKeyDistributionC] })

    /// Plaintext content and the retry receipt it carries (what a receiver whose session broke sends back unencrypted),
    /// parsed both ways a receiver meets them: as a `PlaintextContent` message and as a receipt alone.
    static let plaintextContent = FuzzTarget(
        run: { input in
            if let receipt = try? DecryptionErrorMessage(bytes: input) {
                let again = try? DecryptionErrorMessage(bytes: receipt.serialize())
                invariant(
                    again?.timestamp == receipt.timestamp && again?.deviceId == receipt.deviceId
                        && again?.ratchetKey?.serialize() == receipt.ratchetKey?.serialize(), "a parsed retry receipt re-parses to itself")
                let wrapped = PlaintextContent(receipt)
                invariant(
                    (try? DecryptionErrorMessage.extractFromSerializedContent(wrapped.body))?.timestamp == receipt.timestamp,
                    "a retry receipt wrapped as plaintext content is found in it again")
            }
            guard let content = try? PlaintextContent(bytes: input) else { return }
            invariant(Array(content.serialize()) == input, "plaintext content keeps its bytes")
            _ = try? DecryptionErrorMessage.extractFromSerializedContent(content.body)
        },
        seeds: {
            let f = Fixtures.shared
            guard
                let receipt = try? DecryptionErrorMessage(
                    originalMessageBytes: f.whisperMessages[0], type: .whisper, timestamp: 1_700_000_000_000,
                    originalSenderDeviceId: 2)
            else { return [] }
            return [Array(receipt.serialize()), Array(PlaintextContent(receipt).serialize())]
        })
}
