import Foundation

/// Signal's attachment size buckets: plaintext is zero-padded to the next bucket before encryption, so the
/// server sees sizes from a small set instead of exact lengths.
public enum AttachmentPadding {
    /// `max(541, floor(1.05^ceil(log(n)/log(1.05))))`.
    public static func paddedSize(_ size: Int) -> Int {
        guard size > 0 else { return 541 }
        let exponent = (log(Double(size)) / log(1.05)).rounded(.up)
        return max(541, Int(pow(1.05, exponent).rounded(.down)))
    }
}
