/// One step of ``ContentDetectionService/verify()``: what was checked, whether it passed, and what was seen.
public struct ContentDetectionCheck: Sendable, Equatable, Encodable {
    /// The step: `configuration`, `server`, `account`, `prefix lookup`, `full-hash lookup`, `lookups` or `service`.
    public let check: String
    /// Whether it passed.
    public let ok: Bool
    /// What was seen, for people.
    public let detail: String
}
