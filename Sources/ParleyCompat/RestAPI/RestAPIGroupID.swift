import Foundation

/// signal-cli-rest-api's group ids: `group.` followed by the base64 of signal-cli's group id *text* (itself the base64 of
/// the group's bytes) — base64 twice, as that API writes them. signal-cli's form (its "internal id") is what messages
/// carry.
enum RestAPIGroupID {
    /// The REST form of signal-cli's group id `signalCLIID`.
    static func restForm(of signalCLIID: String) -> String {
        "group." + Data(signalCLIID.utf8).base64EncodedString()
    }

    /// signal-cli's group id inside the REST form `text`, or `nil` when `text` is not one.
    static func signalCLIID(in text: String) -> String? {
        guard text.hasPrefix("group."), let data = Data(base64Encoded: String(text.dropFirst(6))),
            let id = String(data: data, encoding: .utf8), !id.isEmpty
        else { return nil }
        return id
    }
}
