import Foundation
import Testing

@testable import ParleyProtocol

/// Live cross-checks against reference implementations from PyPI, the direction committed vectors cannot cover:
/// libxeddsa verifies Parley's signatures; kyber-py decapsulates Parley's encapsulations.
@Suite(.serialized) struct ReferenceCrossCheckTests {
    static let scripts = TestEnvironment.packageRoot.appendingPathComponent("Scripts/vectors")

    func python(_ script: String, _ arguments: [String]) async throws -> String {
        let (status, output) = try await TestEnvironment.run(
            TestEnvironment.python, [Self.scripts.appendingPathComponent(script).path] + arguments)
        #expect(status == 0, "\(script) failed: \(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func libxeddsaVerifiesParleySignatures() async throws {
        for length in [0, 33, 1569] {
            let key = PrivateKey.generate()
            let message = SecureRandom.bytes(length)
            let signature = key.generateSignature(message: message)
            func hex(_ bytes: some Collection<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
            #expect(try await python("xeddsa_peer.py", ["verify", hex(key.publicKey.keyBytes), hex(message), hex(signature)]) == "true")
            var tampered = signature
            tampered[5] ^= 1
            #expect(try await python("xeddsa_peer.py", ["verify", hex(key.publicKey.keyBytes), hex(message), hex(tampered)]) == "false")
        }
    }

    @Test(arguments: KEMKeyType.allCases)
    func kyberPyDecapsulatesParleyEncapsulations(_ type: KEMKeyType) async throws {
        struct KeyPair: Decodable {
            let public_key_hex: String
            let secret_key_hex: String
        }
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        for _ in 0..<3 {
            let keys = try JSONDecoder().decode(KeyPair.self, from: Data(try await python("kem_peer.py", ["keygen", type.name]).utf8))
            let publicKey = try KEMPublicKey([type.rawValue] + Self.bytes(hex: keys.public_key_hex))
            let (secret, ciphertext) = try publicKey.encapsulate()
            let theirs = try await python("kem_peer.py", ["decaps", type.name, keys.secret_key_hex, hex(Array(ciphertext.dropFirst()))])
            #expect(theirs == hex(secret))
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }
}
