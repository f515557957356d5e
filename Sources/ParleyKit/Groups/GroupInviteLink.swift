import Foundation
import ParleyAPI
import SwiftProtobuf

/// An invite link: the group's master key and the link's password, as Signal's `GroupInviteLink` protobuf in base64url
/// after a `#` (`https://parley.link/group/#…`), so the part that grants access never reaches a web server.
public struct GroupInviteLink: Sendable, Equatable {
    /// The group's master key (32 bytes).
    public let masterKey: Data
    /// The link's password (16 bytes).
    public let password: Data

    /// What comes before the payload.
    public static let prefix = "https://parley.link/group/#"

    /// A link to the group of `masterKey` with `password`.
    public init(masterKey: Data, password: Data) {
        self.masterKey = masterKey
        self.password = password
    }

    /// Parses a link: anything ending in `#` and the payload (or the payload alone).
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for anything else.
    public init(text: String) throws {
        let payload = text.split(separator: "#", omittingEmptySubsequences: false).last.map(String.init) ?? text
        let invalid = ParleyError.invalidArgument("not a group invite link (\(Self.prefix)…)")
        guard let bytes = Base64URL.decode(payload, maximumLength: 256),
            let link = try? Signal_GroupInviteLink(serializedBytes: bytes),
            case .v1Contents(let contents) = link.contents,
            contents.groupMasterKey.count == 32, contents.inviteLinkPassword.count == 16
        else { throw invalid }
        self.init(masterKey: contents.groupMasterKey, password: contents.inviteLinkPassword)
    }

    /// The link's text.
    public var text: String {
        var link = Signal_GroupInviteLink()
        link.v1Contents = .with {
            $0.groupMasterKey = masterKey
            $0.inviteLinkPassword = password
        }
        // Serializing a message of two byte fields cannot fail.
        return Self.prefix + Base64URL.encode((try? link.serializedData()) ?? Data())
    }
}
