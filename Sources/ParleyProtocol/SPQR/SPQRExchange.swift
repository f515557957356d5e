import Crypto

/// SPQR V1's KEM exchange (the "SCKA" state machine of ../shared/interop/PROTOCOL.md, *spqr:* `v1/chunked`): in each
/// epoch one side sends an ML-KEM-768 encapsulation key (header first, then the key's body), the other encapsulates
/// to it (the ciphertext's first part as soon as it has the header, the second once it has the whole key); each
/// piece travels erasure-coded, one 32-byte chunk per message. Epoch 1: the session's initiator sends the key; the
/// roles swap every epoch. Every completed exchange yields the epoch's secret for ``SPQRChain``.
///
/// A value type: ``receive(_:)`` and ``send()`` work on a copy the caller keeps only when it wants to (the session
/// commits SPQR state only after the whole message decrypted).
struct SPQRExchange: Sendable {
    /// An epoch's secret, to add to the chain.
    typealias EpochSecret = (epoch: UInt64, secret: [UInt8])

    struct KeyPair: Sendable {
        /// The decapsulation key as its 64-byte seed d ‖ z (expanded only to decapsulate, once per epoch: loading a
        /// session record then costs no key generation).
        let seed: [UInt8]
        let encapsulationKey: [UInt8]  // ByteEncode12(t̂) ‖ ρ
    }

    enum State: Sendable {
        // The side sending the encapsulation key.
        case keysUnsampled
        case keysSampled(KeyPair, header: SPQRPayloadEncoder)
        case headerSent(KeyPair, key: SPQRPayloadEncoder, ciphertext1: SPQRPayloadDecoder)
        case ciphertext1Received(KeyPair, key: SPQRPayloadEncoder, ciphertext1: [UInt8])
        case keySentCiphertext1Received(KeyPair, ciphertext1: [UInt8], ciphertext2: SPQRPayloadDecoder)
        // The side sending the ciphertext.
        case noHeaderReceived(header: SPQRPayloadDecoder)
        case headerReceived(header: [UInt8])
        case ciphertext1Sampled(Encapsulation, key: SPQRPayloadDecoder)
        case keyReceivedCiphertext1Sampled(Encapsulation, key: [UInt8])
        case ciphertext1Acknowledged(Encapsulation, key: SPQRPayloadDecoder)
        case ciphertext2Sampled(ciphertext2: SPQRPayloadEncoder)
    }

    /// What the ciphertext side keeps between its two encapsulation steps.
    struct Encapsulation: Sendable {
        let header: [UInt8]  // ρ ‖ SHA3-256(ek)
        let pending: IncrementalMLKEM768.PendingEncapsulation
        let ciphertext1: [UInt8]
        var sending: SPQRPayloadEncoder
    }

    static let headerLength = 64
    static let macLength = 32

    var epoch: UInt64 = 1
    var authenticator: SPQRAuthenticator
    var state: State

    /// The exchange of a new session: `sendsKeyFirst` for the initiator (direction A→B).
    init(authKey: [UInt8], sendsKeyFirst: Bool) {
        authenticator = SPQRAuthenticator(authKey: authKey)
        state = sendsKeyFirst ? .keysUnsampled : .noHeaderReceived(header: SPQRPayloadDecoder(length: Self.headerLength + Self.macLength))
    }

    /// An exchange in `state` at `epoch` (a stored state).
    init(epoch: UInt64, authenticator: SPQRAuthenticator, state: State) {
        self.epoch = epoch
        self.authenticator = authenticator
        self.state = state
    }

    /// Whether this side sends the encapsulation key in the current epoch.
    var sendsKey: Bool {
        switch state {
        case .keysUnsampled, .keysSampled, .headerSent, .ciphertext1Received, .keySentCiphertext1Received: return true
        default: return false
        }
    }

    /// The next outgoing payload: its kind and chunk, and an epoch secret when this step made one (the ciphertext
    /// side's first ciphertext chunk).
    mutating func send() throws -> (kind: SPQRMessage.Kind, chunk: SPQRMessage.Chunk?, secret: EpochSecret?) {
        switch state {
        case .keysUnsampled:
            let decapsulationKey: MLKEM768.PrivateKey
            do { decapsulationKey = try MLKEM768.PrivateKey() } catch {
                throw SPQRError.malformedMessage("ML-KEM-768 key generation failed")
            }
            let encapsulationKey = Array(decapsulationKey.publicKey.rawRepresentation)
            let header = Array(encapsulationKey[IncrementalMLKEM768.encodedTHatLength...]) + Array(SHA3_256.hash(data: encapsulationKey))
            var encoder = SPQRPayloadEncoder(header + authenticator.headerMAC(epoch: epoch, header: header))
            let chunk = encoder.next()
            state = .keysSampled(
                KeyPair(seed: Array(decapsulationKey.seedRepresentation), encapsulationKey: encapsulationKey), header: encoder)
            return (.header, chunk, nil)
        case .keysSampled(let keys, var header):
            let chunk = header.next()
            state = .keysSampled(keys, header: header)
            return (.header, chunk, nil)
        case .headerSent(let keys, var key, let ciphertext1):
            let chunk = key.next()
            state = .headerSent(keys, key: key, ciphertext1: ciphertext1)
            return (.encapsulationKey, chunk, nil)
        case .ciphertext1Received(let keys, var key, let ciphertext1):
            let chunk = key.next()
            state = .ciphertext1Received(keys, key: key, ciphertext1: ciphertext1)
            return (.encapsulationKeyWithCiphertext1Ack, chunk, nil)
        case .keySentCiphertext1Received:
            return (.ciphertext1Ack, nil, nil)
        case .noHeaderReceived, .ciphertext1Acknowledged:
            return (.none, nil, nil)
        case .headerReceived(let header):
            let step = try IncrementalMLKEM768.encapsulate1(rho: Array(header[0..<32]), encapsulationKeyHash: Array(header[32..<64]))
            let secret = SPQRKDF.epochSecret(kemSecret: step.sharedSecret, epoch: epoch)
            authenticator.update(epoch: epoch, key: secret)
            var encapsulation = Encapsulation(
                header: header, pending: step.pending, ciphertext1: step.ciphertext1,
                sending: SPQRPayloadEncoder(step.ciphertext1))
            let chunk = encapsulation.sending.next()
            state = .ciphertext1Sampled(encapsulation, key: SPQRPayloadDecoder(length: IncrementalMLKEM768.encodedTHatLength))
            return (.ciphertext1, chunk, (epoch, secret))
        case .ciphertext1Sampled(var encapsulation, let key):
            let chunk = encapsulation.sending.next()
            state = .ciphertext1Sampled(encapsulation, key: key)
            return (.ciphertext1, chunk, nil)
        case .keyReceivedCiphertext1Sampled(var encapsulation, let key):
            let chunk = encapsulation.sending.next()
            state = .keyReceivedCiphertext1Sampled(encapsulation, key: key)
            return (.ciphertext1, chunk, nil)
        case .ciphertext2Sampled(var ciphertext2):
            let chunk = ciphertext2.next()
            state = .ciphertext2Sampled(ciphertext2: ciphertext2)
            return (.ciphertext2, chunk, nil)
        }
    }

    /// Takes in the other side's message of `epoch` (`kind`, `chunk`).
    ///
    /// - Returns: an epoch secret when this message completed the exchange (the key side's last ciphertext chunk).
    /// - Throws: ``SPQRError`` for a message of an epoch too new, a header or ciphertext whose MAC fails, an
    ///   encapsulation key that does not match its header. The caller then keeps its previous state.
    mutating func receive(epoch messageEpoch: UInt64, kind: SPQRMessage.Kind, chunk: SPQRMessage.Chunk?) throws -> EpochSecret? {
        if messageEpoch < epoch { return nil }
        if messageEpoch > epoch {
            guard messageEpoch == epoch + 1, case .ciphertext2Sampled = state else {
                throw SPQRError.malformedMessage("epoch \(messageEpoch) is out of range at epoch \(epoch)")
            }
            epoch += 1
            state = .keysUnsampled
            return nil
        }
        switch (state, kind, chunk) {
        case (.keysSampled(let keys, _), .ciphertext1, let chunk?):
            var ciphertext1 = SPQRPayloadDecoder(length: IncrementalMLKEM768.ciphertext1Length)
            _ = try ciphertext1.add(chunk)
            state = .headerSent(
                keys, key: SPQRPayloadEncoder(Array(keys.encapsulationKey[..<IncrementalMLKEM768.encodedTHatLength])),
                ciphertext1: ciphertext1)
        case (.headerSent(let keys, let key, var decoder), .ciphertext1, let chunk?):
            if let ciphertext1 = try decoder.add(chunk) {
                state = .ciphertext1Received(keys, key: key, ciphertext1: ciphertext1)
            } else {
                state = .headerSent(keys, key: key, ciphertext1: decoder)
            }
        case (.ciphertext1Received(let keys, _, let ciphertext1), .ciphertext2, let chunk?):
            var decoder = SPQRPayloadDecoder(length: IncrementalMLKEM768.ciphertext2Length + Self.macLength)
            if let payload = try decoder.add(chunk) { return try finish(keys, ciphertext1: ciphertext1, payload: payload) }
            state = .keySentCiphertext1Received(keys, ciphertext1: ciphertext1, ciphertext2: decoder)
        case (.keySentCiphertext1Received(let keys, let ciphertext1, var decoder), .ciphertext2, let chunk?):
            if let payload = try decoder.add(chunk) { return try finish(keys, ciphertext1: ciphertext1, payload: payload) }
            state = .keySentCiphertext1Received(keys, ciphertext1: ciphertext1, ciphertext2: decoder)
        case (.noHeaderReceived(var decoder), .header, let chunk?):
            if let payload = try decoder.add(chunk) {
                let header = Array(payload[0..<Self.headerLength])
                guard authenticator.verifyHeader(epoch: epoch, header: header, mac: Array(payload[Self.headerLength...])) else {
                    throw SPQRError.malformedMessage("the encapsulation key header's MAC does not verify")
                }
                state = .headerReceived(header: header)
            } else {
                state = .noHeaderReceived(header: decoder)
            }
        case (.ciphertext1Sampled(let encapsulation, var decoder), .encapsulationKey, let chunk?),
            (.ciphertext1Sampled(let encapsulation, var decoder), .encapsulationKeyWithCiphertext1Ack, let chunk?):
            if let key = try decoder.add(chunk) {
                try Self.check(key, against: encapsulation.header)
                state =
                    kind == .encapsulationKeyWithCiphertext1Ack
                    ? try sendCiphertext2(encapsulation, key: key)
                    : .keyReceivedCiphertext1Sampled(encapsulation, key: key)
            } else {
                state =
                    kind == .encapsulationKeyWithCiphertext1Ack
                    ? .ciphertext1Acknowledged(encapsulation, key: decoder)
                    : .ciphertext1Sampled(encapsulation, key: decoder)
            }
        case (.keyReceivedCiphertext1Sampled(let encapsulation, let key), .ciphertext1Ack, _),
            (.keyReceivedCiphertext1Sampled(let encapsulation, let key), .encapsulationKeyWithCiphertext1Ack, _):
            state = try sendCiphertext2(encapsulation, key: key)
        case (.ciphertext1Acknowledged(let encapsulation, var decoder), .encapsulationKey, let chunk?),
            (.ciphertext1Acknowledged(let encapsulation, var decoder), .encapsulationKeyWithCiphertext1Ack, let chunk?):
            if let key = try decoder.add(chunk) {
                try Self.check(key, against: encapsulation.header)
                state = try sendCiphertext2(encapsulation, key: key)
            } else {
                state = .ciphertext1Acknowledged(encapsulation, key: decoder)
            }
        default:
            break  // nothing this state waits for
        }
        return nil
    }

    /// The key side's end of the epoch: decapsulate, derive and check, then send the ciphertext next epoch.
    private mutating func finish(_ keys: KeyPair, ciphertext1: [UInt8], payload: [UInt8]) throws -> EpochSecret {
        let ciphertext2 = Array(payload[0..<IncrementalMLKEM768.ciphertext2Length])
        let mac = Array(payload[IncrementalMLKEM768.ciphertext2Length...])
        let sharedSecret: [UInt8]
        do {
            let decapsulationKey = try MLKEM768.PrivateKey(seedRepresentation: keys.seed, publicKey: nil)
            sharedSecret = try decapsulationKey.decapsulate(ciphertext1 + ciphertext2).withUnsafeBytes { Array($0) }
        } catch {
            throw SPQRError.malformedMessage("the ciphertext does not decapsulate")
        }
        let secret = SPQRKDF.epochSecret(kemSecret: sharedSecret, epoch: epoch)
        var updated = authenticator
        updated.update(epoch: epoch, key: secret)
        guard updated.verifyCiphertext(epoch: epoch, ciphertext1: ciphertext1, ciphertext2: ciphertext2, mac: mac) else {
            throw SPQRError.malformedMessage("the ciphertext's MAC does not verify")
        }
        authenticator = updated
        let finished = epoch
        epoch += 1
        state = .noHeaderReceived(header: SPQRPayloadDecoder(length: Self.headerLength + Self.macLength))
        return (finished, secret)
    }

    private func sendCiphertext2(_ encapsulation: Encapsulation, key: [UInt8]) throws -> State {
        let ciphertext2: [UInt8]
        do {
            ciphertext2 = try IncrementalMLKEM768.encapsulate2(encapsulation.pending, encodedTHat: key)
        } catch {
            throw SPQRError.malformedMessage("the encapsulation key is not a valid ML-KEM-768 key")
        }
        let mac = authenticator.ciphertextMAC(epoch: epoch, ciphertext1: encapsulation.ciphertext1, ciphertext2: ciphertext2)
        return .ciphertext2Sampled(ciphertext2: SPQRPayloadEncoder(ciphertext2 + mac))
    }

    /// The received key body must be the one the header named — SHA3-256(t̂ ‖ ρ) equals the header's hash — and
    /// a valid key: every 12-bit value below q. Checked as soon as the key is complete.
    private static func check(_ key: [UInt8], against header: [UInt8]) throws {
        guard ConstantTime.equals(Array(SHA3_256.hash(data: key + header[0..<32])), header[32..<64]) else {
            throw SPQRError.malformedMessage("the encapsulation key does not match its header")
        }
        guard IncrementalMLKEM768.isValidEncodedTHat(key) else {
            throw SPQRError.malformedMessage("an encapsulation key value is not below q")
        }
    }
}
