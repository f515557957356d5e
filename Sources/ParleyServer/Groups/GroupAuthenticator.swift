import Foundation
import ParleyProtocol

/// Authenticates group requests: `Authorization: Basic base64(hex(GroupPublicParams):hex(AuthCredentialPresentation))`,
/// as Signal's groups service takes them. The presentation proves a credential this server issued for today's window
/// without saying whose it is; the caller is known only by the member id it encrypts under the group's key.
public struct GroupAuthenticator: Sendable {
    let operations: ServerZkAuthOperations

    /// The longest header accepted (public params and a presentation, hex, base64: under 2,200 characters).
    static let maximumHeaderLength = 4_096

    /// An authenticator with the server's zkgroup keys.
    public init(secretParams: ServerSecretParams) {
        operations = ServerZkAuthOperations(serverSecretParams: secretParams)
    }

    /// The caller `authorization` (the header's value) proves at `now`; `nil` when it is missing, malformed or does not
    /// verify (the caller answers 401 either way).
    public func caller(authorization: String?, now: Date) -> GroupCaller? {
        guard let authorization, authorization.utf8.count <= Self.maximumHeaderLength,
            authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))),
            let text = String(data: decoded, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let paramsBytes = Self.hex(parts[0]), let presentationBytes = Self.hex(parts[1]),
            let params = try? GroupPublicParams(contents: paramsBytes),
            let presentation = try? AuthCredentialPresentation(contents: presentationBytes),
            (try? operations.verifyAuthCredentialPresentation(groupPublicParams: params, authCredentialPresentation: presentation, now: now))
                != nil,
            let groupId = try? params.getGroupIdentifier().serialize(),
            let userId = try? presentation.getUuidCiphertext().serialize()
        else { return nil }
        return GroupCaller(publicParams: params, groupId: Array(groupId), userId: userId)
    }

    /// The bytes of lowercase or uppercase hex `text`; `nil` for anything else.
    static func hex(_ text: Substring) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
