/// `GET /v1/certificate/delivery`: a sender certificate for the authenticated device, as Signal-Server answers it.
public struct DeliveryCertificateResponse: Codable, Sendable, Equatable {
    /// The serialized `SenderCertificate` (base64): the device's account id, device id and identity key, an expiry
    /// about a day ahead, signed by the server key its `ServerCertificate` names.
    public let certificate: String

    /// A response carrying `certificate` (base64).
    public init(certificate: String) { self.certificate = certificate }
}
