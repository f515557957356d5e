/// `PUT /v1/accounts/attributes`: who may send to this account without identifying themselves to the server.
///
/// The unidentified access key is derived from the account's profile key, which only its contacts hold (Signal's
/// derivation: the first 16 bytes of AES-256-GCM over 16 zero bytes, the profile key as key, a zero nonce); a
/// sealed-sender send must present it in ``APIRoutes/unidentifiedAccessKeyHeader``. Rotating the profile key and
/// uploading the new access key shuts out whoever held the old one.
public struct AccountAttributesRequest: Codable, Sendable, Equatable {
    /// 16 bytes, base64; `nil` removes the key (then only unrestricted access allows sealed sends).
    public let unidentifiedAccessKey: String?
    /// Accept sealed-sender sends from anyone, whatever key they present.
    public let unrestrictedUnidentifiedAccess: Bool

    /// New attributes.
    public init(unidentifiedAccessKey: String?, unrestrictedUnidentifiedAccess: Bool = false) {
        self.unidentifiedAccessKey = unidentifiedAccessKey
        self.unrestrictedUnidentifiedAccess = unrestrictedUnidentifiedAccess
    }
}
