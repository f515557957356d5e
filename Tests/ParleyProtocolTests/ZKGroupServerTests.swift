import Foundation
import Testing

@testable import ParleyProtocol

/// zkgroup's server side, first steps: poksho proofs, the credential systems' constants, the server's params and its
/// notary signatures, against libsignal v0.101's vectors (poksho's `sign.rs` and `statement.rs` tests and SHO-SHA256
/// vectors, the `SYSTEM_HARDCODED` constants of `zkgroup/crypto/credentials.rs` and `zkcredential/credentials.rs`, and
/// `ZKGroupTests.swift`'s notary signature).
@Suite struct ZKGroupServerTests {
    static let randomness32 = Randomness(
        (
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        ))
    static let randomness32_2 = Randomness(
        (
            0xC8, 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7,
            0xD8, 0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7
        ))
    static let message32_1 = Data(100..<132)

    struct ParamsVectors: Decodable {
        let serverSecretParams: String
        let serverPublicParams: String
    }

    @Test func theSha256StatefulHashObjectMatchesPoksho() {
        var sho = ShoSha256(label: "asd")
        sho.absorb(Array("asdasd".utf8))
        sho.ratchet()
        #expect(
            sho.squeezeAndRatchet(64).hex
                == "ebe4ef29e18aa54137edd89c23f8bfeac2731c9f675da20e7c67d5ad68d7ee2d40a45232b599552d46b520082fb2705971f07b3158b072b63ab0934a05e6af64"
        )
    }

    @Test func statementsDescribeThemselvesAsPokshoDoes() {
        var one = PokshoStatement()
        one.add("A", [("a", "G")])
        #expect(one.description == [0x01, 0x01, 0x01, 0x00, 0x00])
        var two = PokshoStatement()
        two.add("A", [("a", "G")])
        two.add("B", [("a", "H")])
        #expect(two.description == [0x02, 0x01, 0x01, 0x00, 0x00, 0x02, 0x01, 0x00, 0x03])
        var three = PokshoStatement()
        three.add("A", [("a", "G"), ("b", "H"), ("c", "I")])
        three.add("B", [("c", "H"), ("d", "I")])
        #expect(three.description == [UInt8](hex: "020103000001020203040202020303"))
    }

    @Test func aSignatureProofMatchesPokshosVectorAndVerifies() throws {
        let key = RistrettoScalar.reducing([UInt8](0..<64))
        let publicKey = RistrettoPoint.base(times: key)
        let message = [UInt8](0..<100)
        let statement = NotarySignature.statement
        let proof = try statement.prove(
            scalars: ["private_key": key], points: ["public_key": publicKey], message: message, randomness: [UInt8](0..<32))
        #expect(
            proof.hex
                == "a08f6b34a282dd4c7cfc40b918f224a6b631ca5f6480a10b42bd1408602a7e008a23a1e32479befb5e26b9f0f4fe0e9e9e9ec9afad269143acb03a22c6364f03"
        )
        #expect(statement.verify(proof: proof, points: ["public_key": publicKey], message: message))
        #expect(!statement.verify(proof: proof, points: ["public_key": publicKey], message: message + [0]))
        #expect(!statement.verify(proof: proof, points: ["public_key": RistrettoPoint.generator], message: message))
        var flipped = proof
        flipped[40] ^= 1
        #expect(!statement.verify(proof: flipped, points: ["public_key": publicKey], message: message))
        #expect(!statement.verify(proof: Array(proof.dropLast()), points: ["public_key": publicKey], message: message))
        #expect(!statement.verify(proof: proof, points: [:], message: message))
        // A proof of something false is refused before it leaves.
        #expect(throws: SignalError.self) {
            try statement.prove(
                scalars: ["private_key": key], points: ["public_key": RistrettoPoint.generator], message: message,
                randomness: [UInt8](0..<32))
        }
    }

    @Test func theCredentialSystemsAreLibsignalsHardcodedConstants() {
        #expect(
            LegacyCredentialSystem.generators.serialized.hex
                == "9ae7c8e5ed779b114ae7708aa2f794670adda324987b659913122c35505b105e6ca31025d2d76be7fd34944f98f7fa0e37babb2c8b98bbbdbd3dd1bf130cca2c8a9a3bdfaaa2b6b322d46b93eca7b0d51c86a3c839e11466358258a6c10c577fc2bffd34cd99164c9a6cd29fab55d91ff9269322ec3458603cc96a0d47f704058288f62ee0acedb8aa23242121d98965a9bb2991250c11758095ece0fd2b33285286fe1fcb056103b6081744b975f550d08521568dd3d8618f25c140375a0f4024c3aa23bdfffb27fbd982208d3ecd1fd3bcb7ac0c3a14b109804fc748d7fa456cffb4934f980b6e09a248a60f44a6150ae6c13d7e3c06261d7e4eed37f39f60b04dd9d607fd357012274d3c63dbb38e7378599c9e97dfbb28842694891d5f0ddc729919b798b4131503408cc57a9c532f4427632c88f54cea53861a5bc44c61cc6037dc31c2e8d4474fb519587a448693182ad9d6d86b535957858f547b9340127da75f8074caee944ac36c0ac662d38c9b3ccce03a093fcd9644047398b86b6e83372ff14fb8bb0dea65531252ac70d58a4a0810d682a0e709c9227b30ef6c8e17c5915d527221bb00da8175cd6489aa8aa492a500f9abee5690b9dfca8855dc0bd02a7f277add240f639ac16801e81574afb4683edff63b9a01e93dbd867a04b616c706c80c756c11a3016bbfb60977f4648b5f2395a4b428b7211940813e3afde2b87aa9c2c37bf716e2578f95656df12c2fb6f5d0631f6f71e2c3193f6d"
        )
        #expect(
            ZKCredentialSystem.generators.serialized.hex
                == "589c8718e8263a53a78932b6212a46e7fd52de3ad157b5bb277dba494cfd3471d4cc5f90685952917b33366efcce0512a1f8d70f974758266cb04fc424346d37b20f49cb2a081c94b1771fd8c172ae21785c61ea2c7e31947ce351e7b5ff07028c5329beb87b317ffcd981e440819d91136c988d6d9fbea4a87e55ed24a5993aa02f688ab1d3bd19056f94c8a44b8faddfa3c9c79c95ad44311a7bf00e5e862ec2c399f0d689dfb8c2dc0d7caba32afcf58cf0d85f78195a0b5ab732f565595492cfd982321d1f9be4b21fe6a0214306023d6a05d0d23f67ddc1c0400e5e0a5e92d17595131b7a095e740b884b8c9bb0226a39cfd027c769c4f4677c51f21b24da81fb2bd1356a9d0650f6a63fcc90d93bd74a954ba6f75f0e9fca47a6d21734bce7b28f06b76ef2c44d20a07026534e586eb8e1038874a93e44de362ce7bc0844bffc88e390c62519e281aa6fd53ff9ddd1d9ba303cf70004278ea2ae66ce05a2749d29eba56f3efe99e42902825c473dfc3c154c3762d2e76bd103f629d250b2d9d5c243a4cf8f3be21a84f153f44e2733a105cf780a20f03d84fe1ebbeb0e"
        )
    }

    @Test func theServersNotarySignatureIsLibsignals() throws {
        let secret = try ServerSecretParams.generate(randomness: Self.randomness32)
        let signature = try secret.sign(randomness: Self.randomness32_2, message: Self.message32_1)
        #expect(
            [UInt8](signature.serialize()).hex
                == "87d354564d35ef91edba851e0815612e864c227a0471d50c270698604406d003a55473f576cf241fc6b41c6b16e5e63b333c02fe4a33858022fdd7a4ab367b06"
        )
        let publicParams = try secret.getPublicParams()
        try publicParams.verifySignature(message: Self.message32_1, notarySignature: signature)
        #expect(throws: SignalError.verificationFailed("the notary signature does not verify")) {
            try publicParams.verifySignature(message: Self.message32_1 + Data([0]), notarySignature: signature)
        }
        let fresh = try secret.sign(message: Data("revision 7".utf8))
        try publicParams.verifySignature(message: Data("revision 7".utf8), notarySignature: fresh)
        #expect(throws: SignalError.self) { try NotarySignature(contents: Data(count: 63)) }
    }

    @Test func serverParamsSerializeAndReadBack() throws {
        let vectors = try loadVectors("zkgroup-server-params", as: ParamsVectors.self)
        let secret = try ServerSecretParams.generate(randomness: Self.randomness32)
        #expect([UInt8](secret.serialize()).hex == vectors.serverSecretParams)
        #expect(try ServerSecretParams(contents: secret.serialize()).serialize() == secret.serialize())
        let publicParams = try secret.getPublicParams()
        #expect([UInt8](publicParams.serialize()).hex == vectors.serverPublicParams)
        #expect(try ServerPublicParams(contents: publicParams.serialize()).serialize() == publicParams.serialize())
        #expect(publicParams.endorsementPublicKey.count == 33)
        // Read back, the keys sign as before.
        let again = try ServerSecretParams(contents: secret.serialize())
        #expect(
            try again.sign(randomness: Self.randomness32_2, message: Self.message32_1).serialize()
                == secret.sign(randomness: Self.randomness32_2, message: Self.message32_1).serialize())
    }

    @Test func malformedServerParamsAreRefused() throws {
        let secret = [UInt8](try ServerSecretParams.generate(randomness: Self.randomness32).serialize())
        #expect(throws: SignalError.self) { try ServerSecretParams(contents: Data(secret.dropLast())) }
        var reserved = secret
        reserved[0] = 1
        #expect(throws: SignalError.self) { try ServerSecretParams(contents: Data(reserved)) }
        var scalar = secret
        scalar.replaceSubrange(705..<737, with: [UInt8](repeating: 0xff, count: 32))
        #expect(throws: SignalError.self) { try ServerSecretParams(contents: Data(scalar)) }
        var point = secret
        point.replaceSubrange(737..<769, with: [UInt8](repeating: 0xff, count: 32))
        #expect(throws: SignalError.self) { try ServerSecretParams(contents: Data(point)) }
        let publicParams = [UInt8](try ServerSecretParams.generate(randomness: Self.randomness32).getPublicParams().serialize())
        var badPublic = publicParams
        badPublic.replaceSubrange(129..<161, with: [UInt8](repeating: 0xff, count: 32))
        #expect(throws: SignalError.self) { try ServerPublicParams(contents: Data(badPublic)) }
        #expect(throws: SignalError.self) { try ServerPublicParams(contents: Data(publicParams + [0])) }
    }
}
