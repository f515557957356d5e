/// Failures a ``ServerStore`` reports about the request's content (the HTTP layer answers them with 4xx).
public enum ServerStoreError: Error, Sendable, Equatable {
    /// A KEM prekey id is already used by the other kind (one-time against last resort).
    case kemKeyIdInUse(UInt32)
}
