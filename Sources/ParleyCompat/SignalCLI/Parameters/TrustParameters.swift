/// `trust`'s parameters: a person whose current identity key is trusted, checked against a safety number or not.
struct TrustParameters: SignalCLIParameters {
    let recipient: String?
    /// The safety number compared before trusting (`verifiedSafetyNumber`, or the older `verifiedFingerprint`).
    let verifiedSafetyNumber: String?
    /// Trust whatever key is known, unchecked.
    let trustAllKnownKeys: Bool

    init(reading p: SignalCLIParameterReader) throws {
        recipient = try p.string("recipient")
        verifiedSafetyNumber = try p.string("verifiedSafetyNumber") ?? p.string("verifiedFingerprint")
        trustAllKnownKeys = try p.bool("trustAllKnownKeys") ?? false
    }
}
