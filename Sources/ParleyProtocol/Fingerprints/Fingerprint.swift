/// A safety number in both forms: digits for people to compare, bytes for a QR code.
public struct Fingerprint: Sendable {
    /// The 60-digit form.
    public let displayable: DisplayableFingerprint
    /// The form that is scanned and compared by machine.
    public let scannable: ScannableFingerprint
}
