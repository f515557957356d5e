/// Hard limits on what one request may carry (defaults after Signal-Server's).
public struct ServerLimits: Sendable {
    /// Body limit of small JSON requests (registration).
    public var smallBodyBytes = 16 * 1024
    /// Body limit of a key upload: 100 one-time KEM keys of 1569 bytes in base64, plus the rest.
    public var keyUploadBytes = 512 * 1024
    /// One-time keys of each kind per upload.
    public var keysPerUpload = 100

    /// The defaults.
    public init() {}
}
