import Foundation

/// One file checked against the server's hash banks (``ParleyClient/checkContent(ofFiles:)``).
public struct ContentCheck: Sendable, Equatable {
    /// The file.
    public let file: URL
    /// Its SHA-256, hex.
    public let sha256: String
    /// What the lookup concluded.
    public let verdict: HashVerdict
}
