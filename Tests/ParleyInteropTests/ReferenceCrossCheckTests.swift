import Foundation
import Testing

@testable import ParleyProtocol

/// Live cross-checks against reference implementations from PyPI, the direction committed vectors cannot cover:
/// libxeddsa verifies Parley's signatures; kyber-py decapsulates Parley's encapsulations; a username-link peer on
/// pyca/cryptography reads Parley's links and writes links Parley reads.
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

    @Test func usernameLinksReadBothWaysWithAnIndependentImplementation() async throws {
        let hex = { (bytes: Data) in bytes.map { String(format: "%02x", $0) }.joined() }
        for value in ["alice.42", "SiGNAl.01", String(repeating: "z", count: 32) + ".\(UInt64.max)"] {
            let username = try Username(value)
            let (entropy, encrypted) = try username.createLink()
            #expect(try await python("username_link_peer.py", ["decrypt", hex(entropy), hex(encrypted)]) == value)
            let theirs = try await python("username_link_peer.py", ["encrypt", value, hex(entropy)])
            #expect(try Username(fromLink: Self.bytes(hex: theirs), withRandomness: entropy) == username)
            // Their link under other entropy is refused by Parley; Parley's under other entropy by them.
            #expect(throws: SignalError.self) {
                try Username(fromLink: Self.bytes(hex: theirs), withRandomness: Data(repeating: 1, count: 32))
            }
            #expect(
                try await python("username_link_peer.py", ["decrypt", hex(Data(repeating: 1, count: 32)), hex(encrypted)]) == "invalid")
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }
}
