import Foundation

/// The machine-comparable safety number: protobuf `CombinedFingerprints{1 version, 2 local, 3 remote}`.
public struct ScannableFingerprint: Sendable {
    /// The serialized form, as put into a QR code.
    public let encoding: Data

    init(version: UInt32, localContent: [UInt8], localIdentifier: [UInt8]?, remoteContent: [UInt8], remoteIdentifier: [UInt8]?) {
        var combined = Parley_Fingerprint_CombinedFingerprints()
        combined.version = version
        combined.localFingerprint.content = Data(localContent)
        combined.remoteFingerprint.content = Data(remoteContent)
        if let localIdentifier { combined.localFingerprint.identifier = Data(localIdentifier) }
        if let remoteIdentifier { combined.remoteFingerprint.identifier = Data(remoteIdentifier) }
        encoding = ProtobufCoding.encode(combined)
    }

    /// Wraps a serialized scannable fingerprint.
    public init<Bytes: ContiguousBytes>(encoding: Bytes) { self.encoding = Data(encoding.byteArray) }

    /// Whether `other` (a scanned encoding from the other device) shows the same two identities, mirrored —
    /// LibSignalClient's form of ``compare(against:)``.
    /// - Throws: as ``compare(against:)``.
    public func compare<Other: ContiguousBytes>(againstEncoding other: Other) throws -> Bool {
        try compare(against: ScannableFingerprint(encoding: other))
    }

    /// Whether `other` (scanned from the other device) shows the same two identities, mirrored.
    /// - Throws: ``SignalError/fingerprintVersionMismatch(_:)`` for different versions,
    ///   ``SignalError/fingerprintParsingError(_:)`` when either side does not parse.
    public func compare(against other: ScannableFingerprint) throws -> Bool {
        let mine = try Self.parse(Array(encoding))
        let theirs = try Self.parse(Array(other.encoding))
        guard mine.version == theirs.version else {
            throw SignalError.fingerprintVersionMismatch(theirs: theirs.version, ours: mine.version)
        }
        let localMatches = ConstantTime.equals(mine.localFingerprint.content, theirs.remoteFingerprint.content)
        let remoteMatches = ConstantTime.equals(mine.remoteFingerprint.content, theirs.localFingerprint.content)
        return localMatches && remoteMatches
    }

    private static func parse(_ bytes: [UInt8]) throws -> Parley_Fingerprint_CombinedFingerprints {
        do {
            let parsed: Parley_Fingerprint_CombinedFingerprints = try ProtobufCoding.decode(bytes, what: "scannable fingerprint")
            guard parsed.hasVersion, parsed.hasLocalFingerprint, parsed.hasRemoteFingerprint else {
                throw SignalError.fingerprintParsingError("a field is missing")
            }
            return parsed
        } catch SignalError.protobufError(let message) {
            throw SignalError.fingerprintParsingError(message)
        }
    }
}
