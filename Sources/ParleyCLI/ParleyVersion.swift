/// The version of Parley's command-line client and daemon (what `version` answers over JSON-RPC).
enum ParleyVersion {
    /// The current version.
    static let current = "0.1.0"
}
