extension ParleyError {
    /// Why linking a device through a provisioning message failed.
    public enum Provisioning: Sendable, Equatable, CustomStringConvertible {
        /// The link code (the `parley://link?…` text) is not one a new device made.
        case malformedLinkCode(String)
        /// The encrypted envelope is cut short or malformed.
        case malformedEnvelope(String)
        /// The envelope's version byte is not one this client reads.
        case unsupportedVersion(UInt8)
        /// The envelope's MAC does not verify: it was not made for this device's key, or it was altered.
        case badMAC
        /// The decrypted message does not have the expected fields.
        case malformedMessage(String)
        /// No provisioning message arrived in time.
        case timedOut

        public var description: String {
            switch self {
            case .malformedLinkCode(let detail): return "not a Parley link code: \(detail)"
            case .malformedEnvelope(let detail): return "malformed provisioning envelope: \(detail)"
            case .unsupportedVersion(let version): return "unsupported provisioning envelope version \(version)"
            case .badMAC: return "the provisioning envelope failed its MAC check"
            case .malformedMessage(let detail): return "malformed provisioning message: \(detail)"
            case .timedOut: return "no device approved this link code in time (run `parley devices add CODE` on the primary device)"
            }
        }
    }
}
