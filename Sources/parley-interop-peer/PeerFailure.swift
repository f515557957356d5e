import ParleyProtocol

/// An error reply of the interop line protocol: canonical name, libsignal-protocol-c code, message.
struct PeerFailure: Error {
    let name: String
    let code: Int
    let message: String

    static func badRequest(_ message: String) -> PeerFailure { PeerFailure(name: "bad_request", code: -20001, message: message) }
    static func unknownCommand(_ command: String) -> PeerFailure {
        PeerFailure(name: "unknown_command", code: -20002, message: "unknown command \(command)")
    }
    static let notInitialized = PeerFailure(name: "not_initialized", code: -20003, message: "send init first")
    static let alreadyInitialized = PeerFailure(name: "already_initialized", code: -20004, message: "init was already sent")

    /// The canonical error for a library error.
    init(_ error: SignalError) {
        let (name, code): (String, Int)
        switch error {
        case .duplicatedMessage: (name, code) = ("duplicate_message", -1001)
        case .invalidKey, .invalidSignature: (name, code) = ("invalid_key", -1002)
        case .invalidKeyIdentifier: (name, code) = ("invalid_key_id", -1003)
        case .invalidMessage: (name, code) = ("invalid_message", -1005)
        case .unrecognizedMessageVersion: (name, code) = ("invalid_version", -1006)
        case .legacyCiphertextVersion: (name, code) = ("legacy_message", -1007)
        case .sessionNotFound, .invalidSenderKeySession: (name, code) = ("no_session", -1008)
        case .untrustedIdentity: (name, code) = ("untrusted_identity", -1010)
        case .protobufError: (name, code) = ("invalid_protobuf", -1100)
        case .fingerprintVersionMismatch: (name, code) = ("fingerprint_version_mismatch", -1200)
        case .fingerprintIdentityMismatch: (name, code) = ("fingerprint_identity_mismatch", -1201)
        case .invalidArgument, .fingerprintParsingError: (name, code) = ("invalid_argument", -22)
        default: (name, code) = ("unknown", -1000)
        }
        self.init(name: name, code: code, message: error.description)
    }

    init(name: String, code: Int, message: String) {
        self.name = name
        self.code = code
        self.message = message
    }
}
