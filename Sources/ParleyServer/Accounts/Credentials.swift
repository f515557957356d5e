/// The checks every new device's credential, registration id and name pass (registration and linking).
enum Credentials {
    /// Validates the fields and returns the credential bytes to hash: the base64 text itself, which is what
    /// HTTP Basic authentication presents; decoding it only checks that it carries 16–128 random bytes.
    static func validate(password: String, registrationId: UInt32, deviceName: String?) throws -> [UInt8] {
        guard (1...16380).contains(registrationId) else { throw ServerError.badRequest("registrationId must be 1…16380") }
        let secret = try KeyValidation.bytes(password, field: "password")
        guard (16...128).contains(secret.count) else { throw ServerError.badRequest("password must be 16–128 random bytes") }
        if let deviceName, deviceName.count > 64 || deviceName.utf8.count > 256 {
            throw ServerError.badRequest("deviceName is over 64 characters or 256 bytes")
        }
        if let deviceName, deviceName.containsControlCharacter { throw ServerError.badRequest("deviceName holds a control character") }
        return Array(password.utf8)
    }
}
