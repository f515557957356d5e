import Crypto
import Foundation

/// SPQR state in the session record (`SPQRStateStructure` of LocalStorage.proto). Loading checks every length and
/// state number, so a damaged record is refused with ``SignalError/protobufError(_:)`` rather than trusted.
extension SPQRState {
    private typealias Structure = Parley_Storage_SPQRStateStructure

    /// The stored form.
    var structure: Parley_Storage_SPQRStateStructure {
        var s = Structure()
        s.epoch = exchange.epoch
        s.authRoot = Data(exchange.authenticator.root)
        s.authMacKey = Data(exchange.authenticator.macKey)
        func keys(_ pair: SPQRExchange.KeyPair) {
            s.decapsulationKeySeed = Data(pair.seed)
            s.encapsulationKey = Data(pair.encapsulationKey)
        }
        func encapsulation(_ e: SPQRExchange.Encapsulation) {
            s.header = Data(e.header)
            s.ciphertext1 = Data(e.ciphertext1)
            s.encoder = Self.structure(e.sending)
            // Big-endian 16-bit coefficients, written into one buffer: this runs on every message of an SPQR session.
            let polynomials = e.pending.yHat + [e.pending.e2, e.pending.mu]
            precondition(polynomials.count == 5 && polynomials.allSatisfy { $0.coefficients.count == MLKEMPolynomial.degree })
            var pending = [UInt8](repeating: 0, count: 5 * MLKEMPolynomial.degree * 2)
            var offset = 0
            for polynomial in polynomials {
                for coefficient in polynomial.coefficients {
                    precondition(coefficient < MLKEMPolynomial.q)
                    pending[offset] = UInt8(truncatingIfNeeded: coefficient >> 8)
                    pending[offset + 1] = UInt8(truncatingIfNeeded: coefficient)
                    offset += 2
                }
            }
            s.pending = Data(pending)
        }
        switch exchange.state {
        case .keysUnsampled: s.state = 0
        case .keysSampled(let pair, let header):
            s.state = 1
            keys(pair)
            s.encoder = Self.structure(header)
        case .headerSent(let pair, let key, let ciphertext1):
            s.state = 2
            keys(pair)
            s.encoder = Self.structure(key)
            s.decoder = Self.structure(ciphertext1)
        case .ciphertext1Received(let pair, let key, let ciphertext1):
            s.state = 3
            keys(pair)
            s.encoder = Self.structure(key)
            s.ciphertext1 = Data(ciphertext1)
        case .keySentCiphertext1Received(let pair, let ciphertext1, let ciphertext2):
            s.state = 4
            keys(pair)
            s.ciphertext1 = Data(ciphertext1)
            s.decoder = Self.structure(ciphertext2)
        case .noHeaderReceived(let header):
            s.state = 5
            s.decoder = Self.structure(header)
        case .headerReceived(let header):
            s.state = 6
            s.header = Data(header)
        case .ciphertext1Sampled(let e, let key):
            s.state = 7
            encapsulation(e)
            s.decoder = Self.structure(key)
        case .keyReceivedCiphertext1Sampled(let e, let key):
            s.state = 8
            encapsulation(e)
            s.receivedKey = Data(key)
        case .ciphertext1Acknowledged(let e, let key):
            s.state = 9
            encapsulation(e)
            s.decoder = Self.structure(key)
        case .ciphertext2Sampled(let ciphertext2):
            s.state = 10
            s.encoder = Self.structure(ciphertext2)
        }
        s.initiator = chain.direction == .aliceToBob
        s.nextRoot = Data(chain.nextRoot)
        s.links = chain.links.sorted { $0.key < $1.key }.map { epoch, link in
            var stored = Structure.Link()
            stored.epoch = epoch
            stored.sending = Self.structure(link.sending)
            stored.receiving = Self.structure(link.receiving)
            return stored
        }
        s.newestEpoch = chain.newestEpoch
        s.sendEpoch = chain.sendEpoch
        s.maximumJump = chain.maximumJump
        s.hasReceived_p = hasReceived
        return s
    }

    /// The state stored in `structure`.
    init(structure s: Parley_Storage_SPQRStateStructure) throws {
        func bytes(_ data: Data, _ count: Int, _ field: String) throws -> [UInt8] {
            guard data.count == count else { throw SignalError.protobufError("SPQR state: \(field) is \(data.count) bytes, not \(count)") }
            return Array(data)
        }
        func keys() throws -> SPQRExchange.KeyPair {
            // The seed is expanded (and so checked against the key) only when the epoch's ciphertext arrives.
            SPQRExchange.KeyPair(
                seed: try bytes(s.decapsulationKeySeed, 64, "key seed"),
                encapsulationKey: try bytes(s.encapsulationKey, IncrementalMLKEM768.encapsulationKeyLength, "encapsulation key"))
        }
        func encoder(_ length: Int) throws -> SPQRPayloadEncoder {
            let payload = try bytes(s.encoder.payload, length, "payload")
            guard s.encoder.nextIndex <= UInt32(SPQRMessage.maximumChunkIndex) else {
                throw SignalError.protobufError("SPQR state: chunk index")
            }
            var encoder = SPQRPayloadEncoder(payload)
            encoder.nextIndex = Int(s.encoder.nextIndex)
            return encoder
        }
        func decoder(_ length: Int) throws -> SPQRPayloadDecoder {
            guard s.decoder.length == UInt32(length), s.decoder.chunks.count < length / 32 else {
                throw SignalError.protobufError("SPQR state: a decoder of \(s.decoder.length) bytes")
            }
            var decoder = SPQRPayloadDecoder(length: length)
            for chunk in s.decoder.chunks {
                guard chunk.index <= UInt32(SPQRMessage.maximumChunkIndex) else {
                    throw SignalError.protobufError("SPQR state: chunk index")
                }
                decoder.chunks[Int(chunk.index)] = try bytes(chunk.bytes, 32, "chunk")
            }
            return decoder
        }
        func encapsulation() throws -> SPQRExchange.Encapsulation {
            let pending = try bytes(s.pending, 5 * 256 * 2, "pending encapsulation")
            var polynomials: [MLKEMPolynomial] = []
            for index in 0..<5 {
                let coefficients = (0..<256).map {
                    UInt32(pending[(index * 256 + $0) * 2]) << 8 | UInt32(pending[(index * 256 + $0) * 2 + 1])
                }
                guard coefficients.allSatisfy({ $0 < MLKEMPolynomial.q }) else {
                    throw SignalError.protobufError("SPQR state: a coefficient")
                }
                polynomials.append(MLKEMPolynomial(coefficients: coefficients))
            }
            return SPQRExchange.Encapsulation(
                header: try bytes(s.header, SPQRExchange.headerLength, "header"),
                pending: IncrementalMLKEM768.PendingEncapsulation(yHat: Array(polynomials[0..<3]), e2: polynomials[3], mu: polynomials[4]),
                ciphertext1: try bytes(s.ciphertext1, IncrementalMLKEM768.ciphertext1Length, "ciphertext 1"),
                sending: try encoder(IncrementalMLKEM768.ciphertext1Length))
        }
        let headerPayload = SPQRExchange.headerLength + SPQRExchange.macLength
        let ciphertext2Payload = IncrementalMLKEM768.ciphertext2Length + SPQRExchange.macLength
        let tHat = IncrementalMLKEM768.encodedTHatLength
        let state: SPQRExchange.State
        switch s.state {
        case 0: state = .keysUnsampled
        case 1: state = .keysSampled(try keys(), header: try encoder(headerPayload))
        case 2: state = .headerSent(try keys(), key: try encoder(tHat), ciphertext1: try decoder(IncrementalMLKEM768.ciphertext1Length))
        case 3:
            state = .ciphertext1Received(
                try keys(), key: try encoder(tHat),
                ciphertext1: try bytes(s.ciphertext1, IncrementalMLKEM768.ciphertext1Length, "ciphertext 1"))
        case 4:
            state = .keySentCiphertext1Received(
                try keys(),
                ciphertext1: try bytes(
                    s.ciphertext1, IncrementalMLKEM768.ciphertext1Length,
                    "ciphertext 1"),
                ciphertext2: try decoder(ciphertext2Payload))
        case 5: state = .noHeaderReceived(header: try decoder(headerPayload))
        case 6: state = .headerReceived(header: try bytes(s.header, SPQRExchange.headerLength, "header"))
        case 7: state = .ciphertext1Sampled(try encapsulation(), key: try decoder(tHat))
        case 8: state = .keyReceivedCiphertext1Sampled(try encapsulation(), key: try bytes(s.receivedKey, tHat, "received key"))
        case 9: state = .ciphertext1Acknowledged(try encapsulation(), key: try decoder(tHat))
        case 10: state = .ciphertext2Sampled(ciphertext2: try encoder(ciphertext2Payload))
        default: throw SignalError.protobufError("SPQR state: state \(s.state)")
        }
        guard s.epoch >= 1 else { throw SignalError.protobufError("SPQR state: epoch 0") }
        let authenticator = SPQRAuthenticator(
            root: try bytes(s.authRoot, 32, "authenticator root"),
            macKey: try bytes(s.authMacKey, 32, "authenticator MAC key"))
        func loadChain(_ stored: Structure.Chain) throws -> SPQRChain.Chain {
            var loaded = SPQRChain.Chain(next: try bytes(stored.next, 32, "chain"))
            loaded.counter = stored.counter
            guard stored.kept.count <= Int(SPQRChain.maximumKeptKeys) + 200 else {
                throw SignalError.protobufError("SPQR state: kept keys")
            }
            for key in stored.kept { loaded.kept[key.index] = try bytes(key.bytes, 32, "kept key") }
            return loaded
        }
        guard s.links.count <= 4 else { throw SignalError.protobufError("SPQR state: \(s.links.count) links") }
        var links: [UInt64: SPQRChain.Link] = [:]
        for link in s.links {
            links[link.epoch] = SPQRChain.Link(sending: try loadChain(link.sending), receiving: try loadChain(link.receiving))
        }
        // Restored from the fields directly: loading runs on every message, so it derives nothing.
        let chain = SPQRChain(
            direction: s.initiator ? .aliceToBob : .bobToAlice, maximumJump: s.maximumJump,
            nextRoot: try bytes(s.nextRoot, 32, "next root"), links: links, newestEpoch: s.newestEpoch,
            sendEpoch: s.sendEpoch)
        self.init(
            exchange: SPQRExchange(epoch: s.epoch, authenticator: authenticator, state: state), chain: chain,
            hasReceived: s.hasReceived_p)
    }

    private init(exchange: SPQRExchange, chain: SPQRChain, hasReceived: Bool) {
        self.exchange = exchange
        self.chain = chain
        self.hasReceived = hasReceived
    }

    private static func structure(_ encoder: SPQRPayloadEncoder) -> Structure.Encoder {
        var stored = Structure.Encoder()
        stored.payload = Data(encoder.payload)
        stored.nextIndex = UInt32(encoder.nextIndex)
        return stored
    }

    private static func structure(_ decoder: SPQRPayloadDecoder) -> Structure.Decoder {
        var stored = Structure.Decoder()
        stored.length = UInt32(decoder.length)
        stored.chunks = decoder.chunks.sorted { $0.key < $1.key }.map { index, bytes in
            var chunk = Structure.Chunk()
            chunk.index = UInt32(index)
            chunk.bytes = Data(bytes)
            return chunk
        }
        return stored
    }

    private static func structure(_ chain: SPQRChain.Chain) -> Structure.Chain {
        var stored = Structure.Chain()
        stored.next = Data(chain.next)
        stored.counter = chain.counter
        stored.kept = chain.kept.sorted { $0.key < $1.key }.map { index, key in
            var chunk = Structure.Chunk()
            chunk.index = index
            chunk.bytes = Data(key)
            return chunk
        }
        return stored
    }
}
