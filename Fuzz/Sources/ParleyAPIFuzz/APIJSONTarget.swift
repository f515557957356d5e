import Foundation
import FuzzHarness
import ParleyAPI

/// The JSON the server reads from strangers (request bodies and socket frames): decoding refuses malformed input with
/// an error; whatever decodes encodes and decodes again.
enum APIJSONTarget {
    static let target = FuzzTarget(
        run: { input in
            let data = Data(input)
            check(SocketFrame.self, data)
            check(EphemeralEvent.self, data)
            check(SendMessagesRequest.self, data)
            check(UploadKeysRequest.self, data)
            check(RegisterAccountRequest.self, data)
            check(LinkDeviceRequest.self, data)
            check(DeviceRegistrationRequest.self, data)
            check(HashCheckRequest.self, data)
            check(BatchHashCheckRequest.self, data)
            check(StoreBackupRequest.self, data)
            check(BackupEvaluationRequest.self, data)
            check(BackupRestoreRequest.self, data)
            check(CreateInviteRequest.self, data)
            check(AccountDisabledRequest.self, data)
            check(AccountAttributesRequest.self, data)
            check(ProvisioningMessage.self, data)
            check(PushTarget.self, data)
        },
        seeds: {
            let encoder = JSONEncoder()
            let key = Data(repeating: 5, count: 33).base64EncodedString()
            return [
                try! encoder.encode(
                    SendMessagesRequest(
                        messages: [
                            OutgoingMessage(
                                destinationDeviceId: 1, destinationRegistrationId: 7, type: 3, content: "AAEC")
                        ], timestamp: 1)),
                try! encoder.encode(
                    UploadKeysRequest(
                        signedPreKey: SignedPreKeyEntity(keyId: 1, publicKey: key, signature: "AA=="),
                        preKeys: [PreKeyEntity(keyId: 1, publicKey: key)],
                        kemPreKeys: [], lastResortKemPreKey: nil)),
                try! encoder.encode(
                    RegisterAccountRequest(
                        username: "alice", identityKey: key, registrationId: 7, password: "cGFzc3dvcmQ=",
                        deviceName: "phone")),
                Data(#"{"type":"ack","guid":"2b4f"}"#.utf8),
                Data(#"{"type":"request","request":{"id":7,"verb":"PUT","path":"/v1/messages/a","body":"{}"}}"#.utf8),
                Data(#"{"uses":2,"expiresInHours":24}"#.utf8),
                Data(#"{"webPush":{"endpoint":"https://push.example/abc","p256dh":"BAAA","auth":"AAAA"}}"#.utf8),
                Data(#"{"apns":{"token":"0a1b","topic":"org.example.app","sandbox":true}}"#.utf8),
            ].map { Array($0) }
        })

    private static func check<T: Codable>(_ type: T.Type, _ data: Data) {
        guard let value = try? JSONDecoder().decode(type, from: data) else { return }
        let encoded = try? JSONEncoder().encode(value)
        invariant(encoded.flatMap { try? JSONDecoder().decode(type, from: $0) } != nil, "a decoded \(type) encodes and decodes again")
    }
}
