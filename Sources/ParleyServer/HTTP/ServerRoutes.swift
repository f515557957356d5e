import Hummingbird

/// Where each controller registers its routes (`addRoutes(to:)`): one group per way a request proves who sends it,
/// so a route's authentication is declared by the group it joins, not by a call its handler must remember.
struct ServerRoutes {
    /// No credentials: registration, linking with a code, restore guesses, the trust root, health and metrics.
    let open: RouterGroup<ParleyRequestContext>
    /// A device's credentials (HTTP Basic), checked by ``DeviceAuthenticationMiddleware``; handlers see the device in
    /// ``DeviceRequestContext``.
    let device: RouterGroup<DeviceRequestContext>
    /// Device credentials or, without them, an unidentified access key (``SenderAuthenticationMiddleware``): the
    /// send routes, which sealed-sender clients call without saying who they are.
    let sender: RouterGroup<SenderRequestContext>
    /// The operator's bearer token, checked by ``OperatorAuthenticationMiddleware``.
    let `operator`: RouterGroup<ParleyRequestContext>

    /// The four groups on `router`, authenticating with `devices` and `operators`.
    init(router: Router<ParleyRequestContext>, devices: DeviceAuthenticator, operators: OperatorAuthenticator) {
        open = router.group()
        device = router.group()
            .add(middleware: DeviceAuthenticationMiddleware(authenticator: devices))
            .group(context: DeviceRequestContext.self)
        sender = router.group()
            .add(middleware: SenderAuthenticationMiddleware(authenticator: devices))
            .group(context: SenderRequestContext.self)
        `operator` = router.group().add(middleware: OperatorAuthenticationMiddleware(authenticator: operators))
    }
}
