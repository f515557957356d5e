/// `PUT /v1/devices/self/registration`: the authenticated device starts over as a new installation (a PIN backup
/// restored on a new machine). Its registration id changes, so senders with sessions to the old installation get 410
/// and build new ones, its stored prekeys are dropped (their private halves are gone; it uploads fresh ones next), and
/// its credential is replaced, so the old installation can no longer sign in.
public struct DeviceRegistrationRequest: Codable, Sendable, Equatable {
    /// The new registration id (1…16380).
    public let registrationId: UInt32
    /// The new device credential (base64 of 16–128 random bytes), replacing the one the request authenticates with.
    public let password: String

    /// A request for `registrationId` and the new credential `password`.
    public init(registrationId: UInt32, password: String) {
        self.registrationId = registrationId
        self.password = password
    }
}
