import Foundation

/// A Google service account's key file (the JSON the Firebase console downloads): who the server is to Google's OAuth
/// server and which Firebase project it pushes for.
public struct FCMServiceAccount: Sendable {
    /// The Firebase project (`project_id`).
    public let projectId: String
    /// The account's address (`client_email`), the OAuth assertion's issuer.
    public let clientEmail: String
    /// The key's id (`private_key_id`), the assertion's `kid`, if the file has one.
    public let privateKeyId: String?
    /// Where assertions are exchanged for access tokens (`token_uri`).
    public let tokenURI: String
    /// The RSA key (`private_key`).
    let key: RSASigningKey

    private struct File: Decodable {
        let project_id: String?
        let client_email: String?
        let private_key_id: String?
        let private_key: String?
        let token_uri: String?
    }

    /// The account in the JSON `contents` of the file at `path` (named in errors).
    ///
    /// - Throws: ``PushConfigurationError/invalidServiceAccount(path:reason:)``.
    public init(contents: Data, path: String) throws {
        guard let file = try? JSONDecoder().decode(File.self, from: contents) else {
            throw PushConfigurationError.invalidServiceAccount(path: path, reason: "not a JSON object")
        }
        guard let projectId = file.project_id, !projectId.isEmpty,
            projectId.utf8.allSatisfy({ $0 == 45 || (48...57).contains($0) || (97...122).contains($0) })
        else { throw PushConfigurationError.invalidServiceAccount(path: path, reason: "project_id is missing or malformed") }
        guard let clientEmail = file.client_email, clientEmail.contains("@") else {
            throw PushConfigurationError.invalidServiceAccount(path: path, reason: "client_email is missing")
        }
        guard let tokenURI = file.token_uri, tokenURI.hasPrefix("https://"), URL(string: tokenURI)?.host != nil else {
            throw PushConfigurationError.invalidServiceAccount(path: path, reason: "token_uri is missing or not https")
        }
        guard let pem = file.private_key, let key = try? RSASigningKey(pemRepresentation: pem) else {
            throw PushConfigurationError.invalidServiceAccount(path: path, reason: "private_key is not an RSA key of 2048 bits or more")
        }
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.privateKeyId = file.private_key_id
        self.tokenURI = tokenURI
        self.key = key
    }
}
