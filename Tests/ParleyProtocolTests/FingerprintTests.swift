import Foundation
import Testing

@testable import ParleyProtocol

@Suite struct FingerprintTests {
    // Known answers of libsignal-protocol-c 2.3.3 for the RFC 7748 keys (also checked by the interop driver).
    static let localKey = try! PublicKey([0x05] + [UInt8](hex: "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
    static let remoteKey = try! PublicKey([0x05] + [UInt8](hex: "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
    static let knownAnswers: [(iterations: Int, version: Int, displayable: String, scannable: String)] = [
        (
            5200, 1, "001817707723719389105384922584821121822974300365452601348179",
            "CAESIgogKjwlPlXnByeJ1VlyzPPHKzvsWZ6C4cnmmcQyeaO4+I0aIgogv4e0HwAspeCOlc1O1nlc+LGTtCHfBOaP/Rnu/R5TxFA="
        ),
        (
            5200, 0, "001817707723719389105384922584821121822974300365452601348179",
            "CAASMQohBYUg8AmJMKdUdIt93LQ+91oNvzoNJjga9OukqY6qm05qEgwrMTQxNTU1NTAxMDEaMQohBd6e2317fcG001thwuzkNTc/g0PIW3hnTa38fhRviCtPEgwrMTQxNTU1NTAyMDI="
        ),
        (
            1024, 1, "069454535741975467145590665367494171955376083431081790691403",
            "CAESIgognXi1NOFQ4u4z7ZMrrN6XEtuuVTohm7OLgv1Yyhg3SxEaIgogWycsdwnh7dI7YXni5J0zTpcsxoT/TLh2su+h/nQra9Y="
        ),
    ]

    func make(
        _ iterations: Int = 5200, version: Int = 1, local: PublicKey = localKey, remote: PublicKey = remoteKey,
        localName: String = "+14155550101", remoteName: String = "+14155550202"
    ) throws -> Fingerprint {
        try NumericFingerprintGenerator(iterations: iterations).create(
            version: version, localIdentifier: Array(localName.utf8), localKey: local,
            remoteIdentifier: Array(remoteName.utf8), remoteKey: remote)
    }

    @Test func matchesSignalsCLibrary() throws {
        for answer in Self.knownAnswers {
            let fingerprint = try make(answer.iterations, version: answer.version)
            #expect(fingerprint.displayable.formatted == answer.displayable)
            #expect(Data(fingerprint.scannable.encoding).base64EncodedString() == answer.scannable)
        }
    }

    @Test func bothSidesSeeTheSameNumberAndTheirScansMatch() throws {
        let mine = try make()
        let theirs = try make(local: Self.remoteKey, remote: Self.localKey, localName: "+14155550202", remoteName: "+14155550101")
        #expect(mine.displayable == theirs.displayable)
        #expect(mine.displayable.grouped.split(separator: "\n").count == 3)
        #expect(try mine.scannable.compare(against: theirs.scannable))
        let stranger = try make(remote: PrivateKey.generate().publicKey)
        #expect(try !stranger.scannable.compare(against: theirs.scannable))
    }

    @Test func versionMismatchAndGarbageAreDistinctErrors() throws {
        let v1 = try make()
        let v0 = try make(version: 0)
        #expect { try v1.scannable.compare(against: v0.scannable) } throws: { error in
            if case SignalError.fingerprintVersionMismatch = error { return true } else { return false }
        }
        #expect { try v1.scannable.compare(against: ScannableFingerprint(encoding: [0xFF, 0x01])) } throws: { error in
            if case SignalError.fingerprintParsingError = error { return true } else { return false }
        }
        #expect(throws: SignalError.self) { try make(version: -1) }  // libsignal takes any UInt32 version; negative is not one
        #expect(throws: SignalError.self) { try make(0) }
    }
}

/// Known answers computed by libsignal-protocol-c; see Scripts/vectors/make_fingerprint_vectors.py.
struct FingerprintVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let local_name: String, local_key_hex: String, remote_name: String, remote_key_hex: String
        let iterations: Int, scannable_version: Int, displayable: String, scannable_b64: String
        var testDescription: String { "\(iterations) iterations, v\(scannable_version), \"\(local_name)\"" }
    }
    let cases: [Case]
    static let loaded = try! loadVectors("fingerprint_kat", as: FingerprintVectors.self)
}

@Suite struct FingerprintKnownAnswerTests {
    @Test(arguments: FingerprintVectors.loaded.cases)
    func matchesTheCLibrary(_ vector: FingerprintVectors.Case) throws {
        let fingerprint = try NumericFingerprintGenerator(iterations: vector.iterations).create(
            version: vector.scannable_version,
            localIdentifier: Array(vector.local_name.utf8), localKey: try PublicKey([UInt8](hex: vector.local_key_hex)),
            remoteIdentifier: Array(vector.remote_name.utf8), remoteKey: try PublicKey([UInt8](hex: vector.remote_key_hex)))
        #expect(fingerprint.displayable.formatted == vector.displayable)
        #expect(Data(fingerprint.scannable.encoding).base64EncodedString() == vector.scannable_b64)
    }
}
