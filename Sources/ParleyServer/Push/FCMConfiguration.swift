import Foundation

/// The operator's Firebase Cloud Messaging credentials: a service account and the API's address.
public struct FCMConfiguration: Sendable {
    /// The service account the server signs in as.
    public let account: FCMServiceAccount
    /// The HTTP v1 API's origin.
    public let apiURL: String

    /// Google's endpoint.
    public static let googleURL = "https://fcm.googleapis.com"

    /// Credentials for `account`, sending to `apiURL`.
    ///
    /// - Throws: ``PushConfigurationError/invalidEndpoint(_:)`` when `apiURL` is not absolute https.
    public init(account: FCMServiceAccount, apiURL: String = googleURL) throws {
        guard apiURL.hasPrefix("https://"), URL(string: apiURL)?.host != nil else { throw PushConfigurationError.invalidEndpoint(apiURL) }
        self.account = account
        self.apiURL = apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL
    }
}
