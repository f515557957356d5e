import Foundation

/// Makes safety numbers (libsignal's numeric fingerprint, version 0) for two identities.
///
/// ```swift
/// let fingerprint = try NumericFingerprintGenerator(iterations: 5200).create(
///     version: 1, localIdentifier: Array("alice".utf8), localKey: aliceKey,
///     remoteIdentifier: Array("bob".utf8), remoteKey: bobKey)
/// print(fingerprint.displayable.formatted)
/// ```
public struct NumericFingerprintGenerator: Sendable {
    /// The hash iterations per side (Signal uses 5200).
    public let iterations: Int
    /// The most iterations accepted, to bound the work of one call.
    public static let maximumIterations = 1_000_000

    /// A generator with `iterations` rounds of SHA-512 per side.
    public init(iterations: Int) { self.iterations = iterations }

    /// The fingerprint of the two identities; `version` is the scannable format's version number, as libsignal takes it
    /// (Signal's apps use 2 with ACIs' binary forms as identifiers, 1 with phone numbers). Version 0 is Signal's C
    /// library's legacy format, whose scannable form carries the identity keys and identifiers themselves.
    /// - Throws: ``SignalError/invalidArgument(_:)`` for an unknown version or an iteration count out of range.
    public func create<L: ContiguousBytes, R: ContiguousBytes>(
        version: Int, localIdentifier: L, localKey: PublicKey, remoteIdentifier: R, remoteKey: PublicKey
    ) throws -> Fingerprint {
        guard let scannableVersion = UInt32(exactly: version) else {
            throw SignalError.invalidArgument("fingerprint version \(version)")
        }
        guard (1...Self.maximumIterations).contains(iterations) else {
            throw SignalError.invalidArgument("\(iterations) fingerprint iterations")
        }
        let localId = localIdentifier.byteArray
        let remoteId = remoteIdentifier.byteArray
        let localHash = hash(identifier: localId, key: localKey)
        let remoteHash = hash(identifier: remoteId, key: remoteKey)
        let displayable = DisplayableFingerprint(localHash: localHash, remoteHash: remoteHash)
        let scannable: ScannableFingerprint
        if version == 0 {
            scannable = ScannableFingerprint(
                version: 0, localContent: localKey.serializedBytes, localIdentifier: localId,
                remoteContent: remoteKey.serializedBytes, remoteIdentifier: remoteId)
        } else {
            scannable = ScannableFingerprint(
                version: scannableVersion, localContent: Array(localHash.prefix(32)), localIdentifier: nil,
                remoteContent: Array(remoteHash.prefix(32)), remoteIdentifier: nil)
        }
        return Fingerprint(displayable: displayable, scannable: scannable)
    }

    /// `H0 = 0x00 0x00 ‖ key ‖ identifier`, then `iterations` times `H = SHA-512(H ‖ key)`.
    private func hash(identifier: [UInt8], key: PublicKey) -> [UInt8] {
        let keyBytes = key.serializedBytes
        return NativeCrypto.sha512Iterated(initial: [0, 0] + keyBytes + identifier, suffix: keyBytes, iterations: UInt32(iterations))
    }
}
