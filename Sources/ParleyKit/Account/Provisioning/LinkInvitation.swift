import Foundation
import ParleyAPI
import ParleyProtocol

/// What a new device shows to be linked to an existing account from another machine: a random provisioning
/// address on the server and an ephemeral Curve25519 public key, as the link code
/// `parley://link?address=…&key=…` (Signal's clients show the same two things as a QR code).
///
/// The new device keeps the private key; the primary device, given the code, encrypts the account identity to the
/// public key and leaves it at the address (``AccountManager/approveLink(_:)``).
public struct LinkInvitation: Sendable {
    /// The server address where the primary device leaves the provisioning message (32 random bytes, base64url).
    public let address: String
    /// The new device's ephemeral public key.
    public let publicKey: PublicKey
    /// The matching private key: present only on the new device that made the invitation.
    let privateKey: PrivateKey?

    /// A fresh invitation, made on the new device.
    public static func create() -> LinkInvitation {
        var generator = SystemRandomNumberGenerator()
        let address = Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let privateKey = PrivateKey.generate()
        return LinkInvitation(address: address, publicKey: privateKey.publicKey, privateKey: privateKey)
    }

    /// Reads a link code on the primary device.
    ///
    /// - Throws: ``ParleyError/Provisioning/malformedLinkCode(_:)`` when it is not a code a new device made.
    public init(code: String) throws {
        guard let components = URLComponents(string: code.trimmingCharacters(in: .whitespacesAndNewlines)),
            components.scheme == "parley", components.host == "link"
        else {
            throw ParleyError.provisioning(.malformedLinkCode("expected parley://link?address=…&key=…"))
        }
        let items = components.queryItems ?? []
        guard let address = items.first(where: { $0.name == "address" })?.value, ProvisioningMessage.isValidAddress(address) else {
            throw ParleyError.provisioning(.malformedLinkCode("missing or malformed address"))
        }
        guard let key = items.first(where: { $0.name == "key" })?.value, let bytes = Base64URL.decode(key),
            let publicKey = try? PublicKey(bytes)
        else {
            throw ParleyError.provisioning(.malformedLinkCode("missing or malformed key"))
        }
        self.init(address: address, publicKey: publicKey, privateKey: nil)
    }

    private init(address: String, publicKey: PublicKey, privateKey: PrivateKey?) {
        self.address = address
        self.publicKey = publicKey
        self.privateKey = privateKey
    }

    /// The link code to show the user: `parley://link?address=…&key=…`.
    public var code: String { "parley://link?address=\(address)&key=\(Base64URL.encode(publicKey.serialize()))" }
}
