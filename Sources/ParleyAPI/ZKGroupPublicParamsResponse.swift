/// `GET /v1/config/zkgroup`: the server's zkgroup public params.
public struct ZKGroupPublicParamsResponse: Codable, Sendable, Equatable {
    /// The serialized `ServerPublicParams` (673 bytes, base64).
    public let serverPublicParams: String

    /// A response carrying `serverPublicParams` (base64).
    public init(serverPublicParams: String) { self.serverPublicParams = serverPublicParams }
}
