import Hummingbird

/// The context of a send route (``ServerRoutes/sender``): who may send, as ``SenderAuthenticationMiddleware`` found it.
struct SenderRequestContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// Device credentials or an unidentified access key.
    let authorization: SendAuthorization

    /// The authorization ``SenderAuthenticationMiddleware`` put in `context`; ``ServerError/unauthorized`` without one.
    init(context: ParleyRequestContext) throws {
        if let device = context.authenticatedDevice {
            authorization = .device(device)
        } else if let key = context.unidentifiedAccessKey {
            authorization = .unidentifiedAccess(key: key, clientAddress: context.clientAddress)
        } else {
            throw ServerError.unauthorized
        }
        coreContext = context.coreContext
    }
}
