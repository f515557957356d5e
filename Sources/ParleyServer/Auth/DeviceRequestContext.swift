import Hummingbird

/// The context of a route only an authenticated device reaches (``ServerRoutes/device``): the device is there, not
/// optional, so no handler can forget to check it.
struct DeviceRequestContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The device whose credentials the request carried.
    let device: AuthenticatedDevice

    /// The device ``DeviceAuthenticationMiddleware`` put in `context`; ``ServerError/unauthorized`` without one.
    init(context: ParleyRequestContext) throws {
        guard let device = context.authenticatedDevice else { throw ServerError.unauthorized }
        coreContext = context.coreContext
        self.device = device
    }
}
