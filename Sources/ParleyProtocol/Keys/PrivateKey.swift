import Crypto
import Foundation

/// A Curve25519 private key: 32 bytes, a clamped X25519 scalar, as Signal stores it.
///
/// It agrees on secrets with X25519 (swift-crypto) and signs with XEdDSA, so one
/// key serves both purposes, as identity keys do in the Signal Protocol.
public struct PrivateKey: Sendable {
    let agreementKey: Curve25519.KeyAgreement.PrivateKey
    private let scalar: [UInt8]

    /// A fresh random key.
    public static func generate() -> PrivateKey {
        // A random 32-byte string is always a valid X25519 private key.
        try! PrivateKey(SecureRandom.bytes(32))
    }

    /// Imports a 32-byte private key; the scalar is clamped as X25519 defines.
    /// - Throws: ``SignalError/invalidKey(_:)`` when `bytes` is not 32 bytes long.
    public init<Bytes: ContiguousBytes>(_ bytes: Bytes) throws {
        var raw = bytes.byteArray
        guard raw.count == 32 else { throw SignalError.invalidKey("private key is \(raw.count) bytes, expected 32") }
        raw[0] &= 248
        raw[31] &= 127
        raw[31] |= 64
        do {
            agreementKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
        } catch {
            throw SignalError.invalidKey("not an X25519 private key")
        }
        scalar = raw
    }

    /// The 32-byte clamped scalar.
    public func serialize() -> Data { Data(scalar) }

    /// The matching public key.
    public var publicKey: PublicKey { PublicKey(agreementKey: agreementKey.publicKey) }

    /// An XEdDSA signature (64 bytes) of `message`, with a fresh random nonce.
    public func generateSignature<Bytes: ContiguousBytes>(message: Bytes) -> Data {
        Data(signature(over: message.byteArray))
    }

    /// The XEdDSA signature of `message` as an array, for the protocol's own byte strings.
    func signature(over message: [UInt8]) -> [UInt8] {
        XEdDSA.sign(privateKey: scalar, message: message, random: SecureRandom.bytes(64))
    }

    /// The 32-byte scalar as an array, for the protocol's own byte strings.
    var scalarBytes: [UInt8] { scalar }

    /// The X25519 shared secret with `other` (32 bytes).
    ///
    /// Differs from LibSignalClient, whose `keyAgreement(with:)` does not throw: a low-order `other` would give an
    /// all-zero secret, which Parley refuses instead of returning.
    /// - Throws: ``SignalError/invalidKey(_:)`` when `other` is a low-order point, whose result would be all zeros.
    public func keyAgreement(with other: PublicKey) throws -> Data { Data(try agreement(with: other)) }

    /// The X25519 shared secret with `other` as an array, for the protocol's key derivations.
    func agreement(with other: PublicKey) throws -> [UInt8] {
        do {
            let secret = try agreementKey.sharedSecretFromKeyAgreement(with: other.agreementKey).withUnsafeBytes { Array($0) }
            if ConstantTime.equals(secret, [UInt8](repeating: 0, count: secret.count)) { throw SignalError.invalidKey("") }
            return secret
        } catch {
            throw SignalError.invalidKey("X25519 with a low-order public key")
        }
    }
}

extension PrivateKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Never the key: a value that holds a private key (a configuration, a key pair) can be printed or logged whole.
    public var description: String { "PrivateKey(<redacted>)" }

    /// Never the key (see ``description``).
    public var debugDescription: String { description }

    /// No children: reflection (`dump`, a containing struct's default description) shows no key bytes.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
