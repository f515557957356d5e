/// `GET /v1/certificate/auth/group`: an account's group auth credentials, as Signal-Server answers them.
public struct GroupAuthCredentialsResponse: Codable, Sendable, Equatable {
    /// One credential for a day.
    public struct Credential: Codable, Sendable, Equatable {
        /// The serialized `AuthCredentialWithPniResponse` (base64): the client receives it with its ACI and the day.
        public let credential: String
        /// The day it is for, in seconds since 1970 (a multiple of 86,400).
        public let redemptionTime: UInt64

        /// A credential for `redemptionTime`.
        public init(credential: String, redemptionTime: UInt64) {
            self.credential = credential
            self.redemptionTime = redemptionTime
        }
    }

    /// One per day of the range asked for, in order.
    public let credentials: [Credential]
    /// The account's credential salt (base64): `ClientZkAuthOperations.receiveAuthCredentialWithoutPni` needs it (the
    /// credentials are issued without a PNI, over a stand-in derived from the ACI and this salt). Parley's field, where
    /// Signal-Server answers the account's PNI.
    public let authCredentialSalt: String
    /// Call-link credentials (Signal-Server's field; Parley issues none, so it is always empty).
    public let callLinkAuthCredentials: [Credential]

    /// A response with `credentials` issued over `authCredentialSalt`.
    public init(credentials: [Credential], authCredentialSalt: String, callLinkAuthCredentials: [Credential] = []) {
        self.credentials = credentials
        self.authCredentialSalt = authCredentialSalt
        self.callLinkAuthCredentials = callLinkAuthCredentials
    }
}
