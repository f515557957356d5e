/// The version of Parley's server, client library and command-line tools (one release carries them all): what
/// `parley --version`, `parley-server --version`, the start-up log and JSON-RPC's `version` say.
public enum ParleyVersion {
    /// The current version.
    public static let current = "0.1.0"
}
