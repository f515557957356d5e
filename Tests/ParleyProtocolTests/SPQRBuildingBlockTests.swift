import Testing

@testable import ParleyProtocol

/// Known answers for SPQR V1's building blocks, from Scripts/vectors/make_spqr_vectors.py (an independent Python
/// reading of SPQR-NOTES.md: no published vectors exist).
struct SPQRVectors: Decodable {
    struct Chain: Decodable {
        struct Start: Decodable {
            let next_root, a2b_seed, b2a_seed: String
            let a2b_keys, b2a_keys: [String]
        }
        struct AddEpoch: Decodable {
            let secret, next_root: String
            let a2b_keys, b2a_keys: [String]
        }
        let auth_key: String
        let start: Start
        let add_epoch: AddEpoch
        let key_30000_a2b: String
    }
    struct Keys: Decodable { let root, mac_key: String }
    struct Update2: Decodable { let secret, root, mac_key: String }
    struct Authenticator: Decodable {
        let auth_key, hdr, hdr_mac_epoch_1, ct1, ct2, ct_mac_epoch_1: String
        let after_update_1: Keys
        let after_update_2: Update2
    }
    struct EpochSecret: Decodable {
        let kem_shared_secret, secret: String
        let epoch: UInt64
    }
    struct Codec: Decodable {
        let type: String
        let epoch: UInt64
        let index: UInt32
        let chunk_index: Int?
        let chunk: String?
        let bytes: String
    }
    struct Erasure: Decodable {
        let message, parity_at_1000: String
        let chunks: [String]
    }
    let chain: Chain
    let authenticator: Authenticator
    let epoch_secret: EpochSecret
    let codec: [Codec]
    let erasure: [Erasure]
}

@Suite struct SPQRBuildingBlockTests {
    static let vectors = try! loadVectors("spqr_kat", as: SPQRVectors.self)

    static func hex(_ text: String) -> [UInt8] { [UInt8](hex: text) }

    @Test func chainKeysMatchInBothDirectionsAndAcrossAnEpoch() throws {
        let v = Self.vectors.chain
        var alice = SPQRChain(authKey: Self.hex(v.auth_key), direction: .aliceToBob)
        var bob = SPQRChain(authKey: Self.hex(v.auth_key), direction: .bobToAlice)
        for (offset, expected) in v.start.a2b_keys.enumerated() {
            let sent = try alice.sendKey(epoch: 0)
            #expect(sent.index == UInt32(offset + 1) && sent.key == Self.hex(expected))
        }
        for expected in v.start.b2a_keys { #expect(try bob.sendKey(epoch: 0).key == Self.hex(expected)) }
        // Received out of order: the key of index 5 first, then 1…4 from the kept keys.
        #expect(try bob.receiveKey(epoch: 0, index: 5) == Self.hex(v.start.a2b_keys[4]))
        for index in [3, 1, 4, 2] { #expect(try bob.receiveKey(epoch: 0, index: UInt32(index)) == Self.hex(v.start.a2b_keys[index - 1])) }
        #expect(throws: SPQRError.self) { try bob.receiveKey(epoch: 0, index: 2) }  // a key is given once

        try alice.addEpoch(1, secret: Self.hex(v.add_epoch.secret))
        try bob.addEpoch(1, secret: Self.hex(v.add_epoch.secret))
        for expected in v.add_epoch.a2b_keys {
            let sent = try alice.sendKey(epoch: 1)
            #expect(sent.key == Self.hex(expected))
            #expect(try bob.receiveKey(epoch: 1, index: sent.index) == sent.key)
        }
        for expected in v.add_epoch.b2a_keys { #expect(try bob.sendKey(epoch: 1).key == Self.hex(expected)) }
        // The link one epoch before the send epoch is still kept for late messages; older ones go.
        #expect(try alice.receiveKey(epoch: 0, index: 1) == Self.hex(v.start.b2a_keys[0]))
        #expect(throws: SPQRError.self) { try alice.addEpoch(3, secret: [UInt8](repeating: 7, count: 32)) }
        try alice.addEpoch(2, secret: [UInt8](repeating: 7, count: 32))
        _ = try alice.sendKey(epoch: 2)
        #expect(throws: SPQRError.self) { try alice.receiveKey(epoch: 0, index: 2) }
        #expect(throws: SPQRError.self) { try alice.receiveKey(epoch: 3, index: 1) }
    }

    @Test func jumpsAreBoundedAndOnlyTheNewestSkippedKeysAreKept() throws {
        let v = Self.vectors.chain
        var bob = SPQRChain(authKey: Self.hex(v.auth_key), direction: .bobToAlice)
        let before = bob
        #expect(throws: SPQRError.self) { try bob.receiveKey(epoch: 0, index: SPQRChain.maximumJump + 1) }
        #expect(bob == before, "a refused index changes nothing")
        #expect(throws: SPQRError.self) { try bob.receiveKey(epoch: 7, index: 1) }
        // 25,000 ahead is allowed; then index 30,000 (5,000 further) matches the Python chain.
        _ = try bob.receiveKey(epoch: 0, index: SPQRChain.maximumJump)
        #expect(try bob.receiveKey(epoch: 0, index: 30_000) == Self.hex(v.key_30000_a2b))
        #expect(bob.links[0]?.receiving.kept.count == Int(SPQRChain.maximumKeptKeys))
        #expect(throws: SPQRError.self) { try bob.receiveKey(epoch: 0, index: 1) }  // dropped: too old
        _ = try bob.receiveKey(epoch: 0, index: 29_999)  // kept
        #expect(throws: SPQRError.self) { try bob.receiveKey(epoch: 0, index: 27_999) }  // more than 2,000 behind
        #expect(try bob.receiveKey(epoch: 0, index: 28_000).count == 32)  // exactly 2,000 behind: still kept
    }

    @Test func authenticatorAndEpochSecretMatch() {
        let v = Self.vectors.authenticator
        var authenticator = SPQRAuthenticator(authKey: Self.hex(v.auth_key))
        #expect(authenticator.root == Self.hex(v.after_update_1.root) && authenticator.macKey == Self.hex(v.after_update_1.mac_key))
        #expect(authenticator.headerMAC(epoch: 1, header: Self.hex(v.hdr)) == Self.hex(v.hdr_mac_epoch_1))
        #expect(authenticator.verifyHeader(epoch: 1, header: Self.hex(v.hdr), mac: Self.hex(v.hdr_mac_epoch_1)))
        #expect(!authenticator.verifyHeader(epoch: 2, header: Self.hex(v.hdr), mac: Self.hex(v.hdr_mac_epoch_1)))
        #expect(
            authenticator.verifyCiphertext(
                epoch: 1, ciphertext1: Self.hex(v.ct1), ciphertext2: Self.hex(v.ct2),
                mac: Self.hex(v.ct_mac_epoch_1)))
        var flipped = Self.hex(v.ct_mac_epoch_1)
        flipped[31] ^= 1
        #expect(!authenticator.verifyCiphertext(epoch: 1, ciphertext1: Self.hex(v.ct1), ciphertext2: Self.hex(v.ct2), mac: flipped))

        let e = Self.vectors.epoch_secret
        let secret = SPQRKDF.epochSecret(kemSecret: Self.hex(e.kem_shared_secret), epoch: e.epoch)
        #expect(secret == Self.hex(e.secret) && secret == Self.hex(v.after_update_2.secret))
        authenticator.update(epoch: 2, key: secret)
        #expect(authenticator.root == Self.hex(v.after_update_2.root) && authenticator.macKey == Self.hex(v.after_update_2.mac_key))
    }

    @Test func messagesEncodeAndDecodeAsTheNotesDescribe() throws {
        let kinds: [String: SPQRMessage.Kind] = [
            "none": .none, "hdr": .header, "ek": .encapsulationKey, "ekCt1Ack": .encapsulationKeyWithCiphertext1Ack,
            "ct1Ack": .ciphertext1Ack, "ct1": .ciphertext1, "ct2": .ciphertext2,
        ]
        for vector in Self.vectors.codec {
            let chunk = vector.chunk_index.map { SPQRMessage.Chunk(index: $0, bytes: Self.hex(vector.chunk!)) }
            let message = SPQRMessage(epoch: vector.epoch, index: vector.index, kind: kinds[vector.type]!, chunk: chunk)
            #expect(message.serialize() == Self.hex(vector.bytes))
            #expect(try SPQRMessage(bytes: Self.hex(vector.bytes)) == message)
            #expect(try SPQRMessage(bytes: Self.hex(vector.bytes) + [9, 9, 9]) == message, "trailing bytes are ignored")
        }
    }

    @Test func malformedMessagesAreRefusedWithoutCrashing() {
        let refused: [[UInt8]] = [
            [], [2, 1, 0, 0], [1], [1, 0, 0, 0],  // no epoch, epoch 0
            [1, 1, 0, 7],  // unknown type
            [1, 1, 0, 1, 0] + [UInt8](repeating: 0, count: 31),  // short chunk
            [1, 1, 0x80, 0x80, 0x80, 0x80, 0x10, 0],  // index 2^32: over 32 bits
            [1] + [UInt8](repeating: 0xFF, count: 10) + [0],  // a varint over 64 bits
            [1] + [UInt8](repeating: 0x80, count: 11),  // longer than 10 bytes
            [1, 1, 0, 1, 0x80, 0x80, 0x04] + [UInt8](repeating: 0, count: 32),  // chunk index 65536
        ]
        for bytes in refused { #expect(throws: SPQRError.self, "\(bytes)") { try SPQRMessage(bytes: bytes) } }
        // Random bytes: never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...48, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? SPQRMessage(bytes: [1] + bytes)
        }
    }

    @Test func theErasureCodeMatchesAndAnyNChunksDecode() throws {
        for x in [UInt32(1), 2, 0x1234, 0xFFFF] {
            for y in [UInt32(3), 0x8000, 0xABCD] { #expect(UInt32(GF16.multiply(UInt16(x), UInt16(y))) == GF16.slowMultiply(x, y)) }
            #expect(GF16.multiply(UInt16(x), GF16.inverse(UInt16(x))) == 1)
        }
        var generator = SystemRandomNumberGenerator()
        // The table-driven combination equals the sum of products element by element (zero weights and elements too).
        let weights: [UInt16] = [0, 1, 0xFFFF, 0x1234, 7]
        let rows = (0..<(weights.count * 32)).map { $0 % 5 == 0 ? UInt8(0) : UInt8.random(in: 0...255, using: &generator) }
        let expected = (0..<16).flatMap { element -> [UInt8] in
            let value = weights.enumerated().reduce(UInt16(0)) { sum, pair in
                sum
                    ^ GF16.multiply(
                        pair.element, UInt16(rows[pair.offset * 32 + 2 * element]) << 8 | UInt16(rows[pair.offset * 32 + 2 * element + 1]))
            }
            return [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        #expect(GF16.combine(weights: weights, rows: rows) == expected)
        for vector in Self.vectors.erasure {
            let message = Self.hex(vector.message)
            let count = message.count / 32
            for (index, chunk) in vector.chunks.enumerated() { #expect(SPQRErasureCode.chunk(index, of: message) == Self.hex(chunk)) }
            #expect(SPQRErasureCode.chunk(1000, of: message) == Self.hex(vector.parity_at_1000))
            // Any N distinct chunks rebuild the message: random subsets of the first N + 8 and a far parity chunk.
            for _ in 0..<5 {
                var indices = Array(0..<(count + 8))
                indices.shuffle(using: &generator)
                var chosen = Array(indices.prefix(count - 1)) + [60_000]
                chosen.shuffle(using: &generator)
                let chunks = Dictionary(uniqueKeysWithValues: chosen.map { ($0, SPQRErasureCode.chunk($0, of: message)) })
                #expect(try SPQRErasureCode.decode(chunks, chunkCount: count) == message)
            }
            // Parity alone: every systematic chunk rebuilt from the next N chunks.
            let parity = SPQRErasureCode.chunks(count..<(2 * count), of: message)
            #expect(parity == Dictionary(uniqueKeysWithValues: (count..<(2 * count)).map { ($0, SPQRErasureCode.chunk($0, of: message)) }))
            #expect(try SPQRErasureCode.decode(parity, chunkCount: count) == message)
            let tooFew = Dictionary(uniqueKeysWithValues: (1..<count).map { ($0, SPQRErasureCode.chunk($0, of: message)) })
            #expect(throws: SPQRError.self) { try SPQRErasureCode.decode(tooFew, chunkCount: count) }
        }
    }
}
