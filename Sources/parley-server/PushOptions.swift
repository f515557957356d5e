import ArgumentParser
import Foundation
import ParleyServer

/// `parley-server serve`'s push provider flags: Web Push is always on (its VAPID key is made on first start); APNs
/// and FCM when their credentials are given.
struct PushOptions: ParsableArguments {
    private static let environment = ProcessInfo.processInfo.environment

    @Option(
        help:
            "The VAPID (Web Push) signing key file, created on first start; processes sharing one PostgreSQL database must share it (environment: PARLEY_VAPID_KEY_FILE; default: vapid.key in the data directory)."
    )
    var vapidKeyFile: String?

    @Option(help: "A mailto: or https:// contact push services may reach the operator at (environment: PARLEY_VAPID_SUBJECT).")
    var vapidSubject = environment["PARLEY_VAPID_SUBJECT"] ?? VAPIDSigner.defaultSubject

    @Option(
        help:
            "APNs token signing key (.p8 from Apple); with --apns-key-id and --apns-team-id enables APNs (environment: PARLEY_APNS_KEY_FILE)."
    )
    var apnsKeyFile: String?

    @Option(help: "The APNs key's 10-character id (environment: PARLEY_APNS_KEY_ID).")
    var apnsKeyId: String?

    @Option(help: "The Apple developer team's 10-character id (environment: PARLEY_APNS_TEAM_ID).")
    var apnsTeamId: String?

    @Option(
        help: "Send APNs requests here instead of Apple's production and sandbox hosts (a relay, or tests) (environment: PARLEY_APNS_URL).")
    var apnsURL: String?

    @Option(help: "Google service-account JSON for the Firebase project; enables FCM (environment: PARLEY_FCM_SERVICE_ACCOUNT).")
    var fcmServiceAccount: String?

    @Option(help: "Send FCM requests here instead of https://fcm.googleapis.com (environment: PARLEY_FCM_URL).")
    var fcmURL: String?

    @Option(
        help:
            "PEM file of the only certificate authorities trusted for push providers; default: the system's (environment: PARLEY_PUSH_CA_FILE)."
    )
    var pushCAFile: String?

    @Flag(
        help:
            "Accept Web Push endpoints at loopback, private and link-local addresses (a push service on your own network, tests) (environment: PARLEY_PUSH_ALLOW_PRIVATE_HOSTS=1)."
    )
    var pushAllowPrivateHosts = false

    /// The flag or its environment variable. (A flag's default must be `false`: ArgumentParser refuses to start with a
    /// flag that defaults to `true`, so the variable is read here, not as the default.)
    var allowsPrivateHosts: Bool { pushAllowPrivateHosts || Self.environment["PARLEY_PUSH_ALLOW_PRIVATE_HOSTS"] == "1" }

    @Option(
        help:
            "Seconds within which a device is pushed at most once, however many messages arrive (environment: PARLEY_PUSH_WINDOW_SECONDS).")
    var pushWindowSeconds = Int(environment["PARLEY_PUSH_WINDOW_SECONDS"] ?? "") ?? 30

    func validate() throws {
        guard (1...3600).contains(pushWindowSeconds) else { throw ValidationError("--push-window-seconds must be 1…3600") }
        let apns = [
            value(apnsKeyFile, "PARLEY_APNS_KEY_FILE"), value(apnsKeyId, "PARLEY_APNS_KEY_ID"), value(apnsTeamId, "PARLEY_APNS_TEAM_ID"),
        ]
        guard apns.allSatisfy({ $0 == nil }) || apns.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--apns-key-file, --apns-key-id and --apns-team-id go together")
        }
    }

    /// The settings these flags describe, with the VAPID key kept in `dataDirectory` unless a file is named.
    ///
    /// - Throws: ``PushConfigurationError`` for unusable credentials; Foundation's error for unreadable files.
    func settings(dataDirectory: URL) throws -> PushSettings {
        let keyFile =
            value(vapidKeyFile, "PARLEY_VAPID_KEY_FILE").map { URL(fileURLWithPath: $0) }
            ?? dataDirectory.appendingPathComponent("vapid.key")
        var settings = PushSettings(vapid: try VAPIDSigner(rawKey: try SecretKeyFile.load(at: keyFile), subject: vapidSubject))
        if let path = value(apnsKeyFile, "PARLEY_APNS_KEY_FILE"), let keyId = value(apnsKeyId, "PARLEY_APNS_KEY_ID"),
            let teamId = value(apnsTeamId, "PARLEY_APNS_TEAM_ID")
        {
            let pem = try String(contentsOfFile: path, encoding: .utf8)
            if let url = value(apnsURL, "PARLEY_APNS_URL") {
                settings.apns = try APNsConfiguration(
                    keyPEM: pem, keyPath: path, keyId: keyId, teamId: teamId, productionURL: url, sandboxURL: url)
            } else {
                settings.apns = try APNsConfiguration(keyPEM: pem, keyPath: path, keyId: keyId, teamId: teamId)
            }
        }
        if let path = value(fcmServiceAccount, "PARLEY_FCM_SERVICE_ACCOUNT") {
            let account = try FCMServiceAccount(contents: try Data(contentsOf: URL(fileURLWithPath: path)), path: path)
            settings.fcm = try FCMConfiguration(account: account, apiURL: value(fcmURL, "PARLEY_FCM_URL") ?? FCMConfiguration.googleURL)
        }
        settings.trustRootsFile = value(pushCAFile, "PARLEY_PUSH_CA_FILE")
        settings.coalescingWindow = .seconds(pushWindowSeconds)
        settings.allowsPrivateWebPushHosts = allowsPrivateHosts
        return settings
    }

    private func value(_ flag: String?, _ variable: String) -> String? { flag ?? Self.environment[variable] }
}
