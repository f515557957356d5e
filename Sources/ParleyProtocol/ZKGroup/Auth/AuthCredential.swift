import Foundation

/// What the auth credential's issuance and presentation share: its label, the attribute layout (ACI, then PNI, then the
/// redemption day as the public attribute) and the window in which a server accepts a day's credential.
enum AuthCredential {
    /// The credential's label (libsignal's `CREDENTIAL_LABEL` for the zkcredential auth credential).
    static let label = "20240222_Signal_AuthCredentialZkc"

    /// The issuance over an ACI, a PNI (or its stand-in) and a redemption time.
    static func issuance(aci: ServiceIdAttribute, pni: ServiceIdAttribute, redemptionTime: UInt64) -> ZKCredentialIssuance {
        var issuance = ZKCredentialIssuance(label: label)
        issuance.addAttribute(aci.points)
        issuance.addAttribute(pni.points)
        issuance.addPublicAttribute(ShoHmacSha256.bigEndian(redemptionTime))
        return issuance
    }

    /// Whether a credential for `redemptionTime` may be used at `now` (both in seconds): from a day before to two days
    /// after, which absorbs clock skew between client and server.
    static func isRedeemable(redemptionTime: UInt64, now: UInt64) -> Bool {
        let day = ZKGroupTime.secondsPerDay
        guard redemptionTime >= day, redemptionTime <= UInt64.max - 2 * day else { return false }
        return (redemptionTime - day...redemptionTime + 2 * day).contains(now)
    }
}
