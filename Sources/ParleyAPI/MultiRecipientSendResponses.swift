/// 200 answer to `PUT /v1/messages/multi_recipient`: every recipient device's share was stored.
public struct MultiRecipientSendResponse: Codable, Sendable, Equatable {
    /// Server time of acceptance, milliseconds since 1970.
    public let serverTimestamp: UInt64

    /// A multi-recipient send result.
    public init(serverTimestamp: UInt64) { self.serverTimestamp = serverTimestamp }
}

/// One recipient of a multi-recipient send whose devices the sender got wrong (the 409 body is a list of these).
public struct AccountMismatchedDevices: Codable, Sendable, Equatable {
    /// The recipient's service id (its account id).
    public let uuid: String
    /// Its missing and extra devices.
    public let devices: MismatchedDevicesResponse

    /// A recipient's device mismatch.
    public init(uuid: String, devices: MismatchedDevicesResponse) {
        self.uuid = uuid
        self.devices = devices
    }
}

/// One recipient of a multi-recipient send with re-registered devices (the 410 body is a list of these).
public struct AccountStaleDevices: Codable, Sendable, Equatable {
    /// The recipient's service id (its account id).
    public let uuid: String
    /// Its stale devices.
    public let devices: StaleDevicesResponse

    /// A recipient's stale devices.
    public init(uuid: String, devices: StaleDevicesResponse) {
        self.uuid = uuid
        self.devices = devices
    }
}

/// 404 answer to a multi-recipient send naming accounts the server does not have: nothing was stored.
public struct UnknownRecipientsResponse: Codable, Sendable, Equatable {
    /// `unknown_recipients`.
    public let code: String
    /// What to do about it.
    public let message: String
    /// The service ids the server has no account for.
    public let uuids404: [String]

    /// A 404 body.
    public init(uuids404: [String]) {
        code = "unknown_recipients"
        message = "drop these recipients (and their access keys from the combined key) and send again"
        self.uuids404 = uuids404
    }
}
