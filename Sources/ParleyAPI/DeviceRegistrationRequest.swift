/// `PUT /v1/devices/self/registration`: the authenticated device starts over as a new installation (a PIN backup
/// restored on a new machine). Its registration id changes, so senders with sessions to the old installation get 410
/// and build new ones, and its stored prekeys are dropped (their private halves are gone); it uploads fresh ones next.
public struct DeviceRegistrationRequest: Codable, Sendable, Equatable {
    /// The new registration id (1…16380).
    public let registrationId: UInt32

    /// A request for `registrationId`.
    public init(registrationId: UInt32) {
        self.registrationId = registrationId
    }
}
