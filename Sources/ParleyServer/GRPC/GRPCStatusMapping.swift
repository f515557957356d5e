import GRPCCore

/// How the server's errors read as gRPC statuses: the code that means the same as the HTTP status, the same message
/// the REST JSON carries, and `retry-after` metadata where REST sends the header.
enum GRPCStatusMapping {
    /// The status for `error`; anything but a ``ServerError`` is `internal` with no detail.
    static func rpcError(for error: any Error) -> RPCError {
        guard let error = error as? ServerError else {
            return RPCError(code: .internalError, message: "the server failed to process the request")
        }
        let message = error.body.message
        switch error {
        case .badRequest: return RPCError(code: .invalidArgument, message: message)
        case .unauthorized, .groupCredentialRequired: return RPCError(code: .unauthenticated, message: message)
        case .forbidden, .wrongPIN: return RPCError(code: .permissionDenied, message: message)
        case .notFound, .gone: return RPCError(code: .notFound, message: message)
        case .conflict: return RPCError(code: .failedPrecondition, message: message)
        case .payloadTooLarge: return RPCError(code: .resourceExhausted, message: message)
        case .tooManyRequests(let seconds):
            return RPCError(code: .resourceExhausted, message: message, metadata: ["retry-after": "\(seconds)"])
        case .rangeNotSatisfiable: return RPCError(code: .outOfRange, message: message)
        case .clientError: return RPCError(code: .invalidArgument, message: message)
        case .internalFailure: return RPCError(code: .internalError, message: message)
        case .unavailable: return RPCError(code: .unavailable, message: message)
        }
    }
}
