import Foundation
import ParleyProtocol

/// The stateless `fingerprint` and `fingerprint_compare` commands.
enum PeerFingerprints {
    static func fingerprint(_ request: PeerRequest) throws -> [String: Any] {
        let iterations = try request.optionalInt("iterations") ?? 5200
        let version = try request.optionalInt("scannable_version") ?? 1
        let fingerprint = try NumericFingerprintGenerator(iterations: iterations).create(
            version: version,
            localIdentifier: Array(try request.string("local_name").utf8),
            localKey: try PublicKey(try request.bytes("local_identity_key_b64")),
            remoteIdentifier: Array(try request.string("remote_name").utf8),
            remoteKey: try PublicKey(try request.bytes("remote_identity_key_b64")))
        return ["displayable": fingerprint.displayable.formatted, "scannable_b64": b64(fingerprint.scannable.encoding)]
    }

    static func compare(_ request: PeerRequest) throws -> [String: Any] {
        let local = ScannableFingerprint(encoding: try request.bytes("local_scannable_b64"))
        let remote = ScannableFingerprint(encoding: try request.bytes("remote_scannable_b64"))
        return ["match": try local.compare(against: remote)]
    }
}
