import ParleyAPI

/// Why an operator call failed.
public enum OperatorClientError: Error, Equatable, CustomStringConvertible {
    /// The server answered with an error status and, usually, its JSON error body.
    case rejected(status: Int, body: APIErrorBody?)
    /// The server's answer did not decode as the expected type.
    case malformedResponse(String)
    /// The server could not be reached, or the connection failed.
    case transport(String)
    /// A file to upload could not be read.
    case unreadableFile(String)

    public var description: String {
        switch self {
        case .rejected(let status, let body?): return "server refused (\(status) \(body.code)): \(body.message)"
        case .rejected(let status, nil): return "server refused with status \(status)"
        case .malformedResponse(let detail): return "unexpected answer from the server: \(detail)"
        case .transport(let detail): return "cannot reach the server: \(detail)"
        case .unreadableFile(let path): return "cannot read \(path)"
        }
    }
}
