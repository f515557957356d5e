import Foundation
import ParleyKit

/// How signal-cli's tools name people, mapped onto Parley accounts.
///
/// signal-cli identifies people by phone number, UUID or `u:username`. Parley has no phone numbers: an account whose
/// username is all digits stands for the number `+` followed by those digits (self-declared, never verified by SMS), so
/// tools that only accept E.164 numbers can name it. A UUID is an account id; `u:NAME` and any other text a username.
enum SignalCLIAddress {
    /// What a recipient string names.
    enum Name: Equatable {
        /// A Parley account id.
        case accountId(String)
        /// A Parley username (from `+digits`, `u:name` or a bare name).
        case username(String)
    }

    /// Parses a recipient as signal-cli takes it.
    /// - Throws: signal-cli's user error (-1) for a `PNI:` id or an empty string.
    static func parse(_ recipient: String) throws -> Name {
        let text = recipient.trimmingCharacters(in: .whitespaces)
        if let uuid = UUID(uuidString: text) { return .accountId(uuid.uuidString.lowercased()) }
        if text.hasPrefix("+"), text.count > 1, text.dropFirst().allSatisfy(\.isASCIIDigit) { return .username(String(text.dropFirst())) }
        if text.hasPrefix("u:"), text.count > 2 { return .username(String(text.dropFirst(2))) }
        if text.uppercased().hasPrefix("PNI:") {
            throw JSONRPCError.userError("Invalid recipient '\(recipient)': Parley accounts have no PNI")
        }
        guard !text.isEmpty else { throw JSONRPCError.userError("No recipients given") }
        return .username(text)
    }

    /// The account id `recipient` names (asking the server for a username it does not know yet).
    static func resolve(_ recipient: String, with client: any CompatClient) async throws -> String {
        switch try parse(recipient) {
        case .accountId(let id): return id
        case .username(let name): return try await client.resolve(name)
        }
    }

    /// The phone-number form of an account with `username`: `+digits` when the username is all digits, else `nil`.
    static func number(forUsername username: String?) -> String? {
        guard let username, !username.isEmpty, username.allSatisfy(\.isASCIIDigit) else { return nil }
        return "+" + username
    }

    /// signal-cli's `{number, uuid, username}` for an account.
    struct Address: Sendable {
        let number: String?
        let uuid: String
        let username: String?

        init(accountId: String, username: String?) {
            number = SignalCLIAddress.number(forUsername: username)
            uuid = accountId
            self.username = username
        }

        /// The address as signal-cli writes it (every field present, `null` when there is no value).
        var json: JSONValue { .object(["number": .orNull(number), "uuid": .string(uuid), "username": .orNull(username)]) }
    }
}

extension Character {
    /// Whether this is one of 0…9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
