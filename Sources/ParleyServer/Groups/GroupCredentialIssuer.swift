import Crypto
import Foundation
import ParleyProtocol

/// The server's zkgroup keys and the daily auth credentials it issues with them.
///
/// The keys are derived from a 32-byte seed kept in its own file (`zkgroup.key`, beside the database, never in it),
/// so every process of one deployment issues and verifies with the same keys. Credentials are issued without a PNI
/// (Parley accounts have none): the PNI slot holds a stand-in derived from the ACI and a per-account salt, itself
/// HMAC-SHA256 of the account id under a key derived from the seed, so the salt needs no storage.
public struct GroupCredentialIssuer: Sendable {
    /// The server's secret params (generated from the seed).
    public let secretParams: ServerSecretParams
    /// Their public half, serialized (what `GET /v1/config/zkgroup` answers).
    public let publicParams: Data
    private let saltKey: SymmetricKey

    /// The most days one request may ask for (Signal-Server's limit: today and the next seven).
    public static let maximumDays = 7

    /// Seconds in a day.
    static let day: UInt64 = 86_400

    /// The keys of `seed` (32 bytes; random when not given — credentials then do not outlive the process).
    public init(seed: [UInt8]? = nil) {
        var generator = SystemRandomNumberGenerator()
        let seed = seed ?? (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        precondition(seed.count == 32, "a zkgroup seed is 32 bytes")
        let randomness = seed.withUnsafeBufferPointer { buffer in
            Randomness(
                (
                    buffer[0], buffer[1], buffer[2], buffer[3], buffer[4], buffer[5], buffer[6], buffer[7], buffer[8], buffer[9],
                    buffer[10],
                    buffer[11], buffer[12], buffer[13], buffer[14], buffer[15], buffer[16], buffer[17], buffer[18], buffer[19], buffer[20],
                    buffer[21], buffer[22], buffer[23], buffer[24], buffer[25], buffer[26], buffer[27], buffer[28], buffer[29], buffer[30],
                    buffer[31]
                ))
        }
        // Generation from 32 bytes of randomness cannot fail.
        secretParams = try! ServerSecretParams.generate(randomness: randomness)
        publicParams = try! secretParams.getPublicParams().serialize()
        saltKey = SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(for: Array("parley zkgroup pni salt".utf8), using: SymmetricKey(data: seed)))
    }

    /// The salt of `accountId`'s stand-in PNI.
    public func pniSalt(accountId: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Array(accountId.utf8), using: saltKey))
    }

    /// Credentials for `aci`, one per day of `start`…`end` (seconds since 1970, both whole days, inclusive) that lies
    /// between today and ``maximumDays`` days ahead at `now`: at most eight, whatever is asked (a reversed range or one
    /// wholly outside the window gets none).
    /// - Throws: ``GroupCredentialRangeError/notWholeDays`` when a bound is not a whole day.
    public func credentials(aci: Aci, start: UInt64, end: UInt64, now: Date) throws -> [(redemptionTime: UInt64, credential: Data)] {
        guard start % Self.day == 0, end % Self.day == 0 else { throw GroupCredentialRangeError.notWholeDays }
        let today = UInt64(max(0, now.timeIntervalSince1970)) / Self.day * Self.day
        let first = max(start, today)
        let last = min(end, today + UInt64(Self.maximumDays) * Self.day)
        guard first <= last else { return [] }
        let operations = ServerZkAuthOperations(serverSecretParams: secretParams)
        let salt = pniSalt(accountId: aci.serviceIdString)
        return try stride(from: first, through: last, by: Int(Self.day)).map { day in
            (day, try operations.issueAuthCredentialZkcWithoutPni(aci: aci, salt: salt, redemptionTime: day).serialize())
        }
    }
}

/// Why a range of group credential days was refused.
public enum GroupCredentialRangeError: Error, Equatable, CustomStringConvertible {
    /// A bound is not a multiple of 86,400 seconds.
    case notWholeDays

    public var description: String {
        switch self {
        case .notWholeDays: "redemptionStartSeconds and redemptionEndSeconds must be multiples of 86400"
        }
    }
}
