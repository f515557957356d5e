import Foundation

/// What the primary device hands a new device inside the encrypted provisioning envelope: the account, its
/// identity key pair (the account's identity is shared by all its devices) and a one-time link code with which the
/// new device joins on the server.
struct DeviceProvisioning: Codable, Sendable {
    /// Format version; 1 is the only one.
    var version = 1
    /// The account id.
    let accountId: String
    /// The account's username.
    let username: String
    /// The identity key pair, serialized as ParleyProtocol's `IdentityKeyPair.serialize()`, base64.
    let identityKeyPair: String
    /// The server's link code (`POST /v1/devices/link-code`).
    let linkCode: String
    /// The account's profile key (base64 of 32 bytes), so that the new device shares the key its access key is made
    /// from; absent from primaries older than profile keys.
    var profileKey: String? = nil

    /// Decodes and checks a decrypted message.
    static func decode(_ plaintext: [UInt8]) throws -> DeviceProvisioning {
        let message: DeviceProvisioning
        do {
            message = try JSONDecoder().decode(DeviceProvisioning.self, from: Data(plaintext))
        } catch {
            throw ParleyError.provisioning(.malformedMessage("\(error)"))
        }
        guard message.version == 1 else { throw ParleyError.provisioning(.malformedMessage("unknown version \(message.version)")) }
        guard Data(base64Encoded: message.identityKeyPair) != nil else {
            throw ParleyError.provisioning(.malformedMessage("identity key pair is not base64"))
        }
        if let profileKey = message.profileKey, Data(base64Encoded: profileKey)?.count != ProfileKey.length {
            throw ParleyError.provisioning(.malformedMessage("the profile key is not 32 bytes of base64"))
        }
        return message
    }
}
