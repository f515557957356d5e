import Foundation
import ParleyProtocol

/// Checks the profile key credential presentation that stands for a member joining a group, and yields the two
/// ciphertexts it proves: the member's id and profile key under the group's keys.
public struct MemberPresentationVerifier: Sendable {
    let operations: ServerZkProfileOperations

    /// A verifier with the server's zkgroup keys.
    public init(secretParams: ServerSecretParams) {
        operations = ServerZkProfileOperations(serverSecretParams: secretParams)
    }

    /// The member id and profile key ciphertexts `presentation` proves for the group of `publicParams` at `now`.
    /// - Throws: ``GroupRuleError/invalid(_:)`` for bytes that are not a presentation;
    ///   ``GroupRuleError/forbidden(_:)`` for one that does not verify or whose credential has expired.
    public func verify(_ presentation: Data, publicParams: GroupPublicParams, now: Date) throws(GroupRuleError) -> (
        userId: Data, profileKey: Data
    ) {
        let parsed: ProfileKeyCredentialPresentation
        do {
            parsed = try ProfileKeyCredentialPresentation(contents: presentation)
        } catch {
            throw .invalid("a member's presentation is not a profile key credential presentation (\(error))")
        }
        do {
            try operations.verifyProfileKeyCredentialPresentation(
                groupPublicParams: publicParams, profileKeyCredentialPresentation: parsed, now: now)
            return (try parsed.getUuidCiphertext().serialize(), try parsed.getProfileKeyCiphertext().serialize())
        } catch {
            throw .forbidden("a member's profile key credential presentation does not verify or has expired")
        }
    }
}
