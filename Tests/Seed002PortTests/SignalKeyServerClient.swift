import Foundation
import ParleyProtocol

// MARK: - Key Server Client Protocol

protocol SignalKeyServerClient {
    func uploadKeys(
        deviceId: UInt32,
        registrationId: UInt32,
        identityKey: IdentityKey,
        signedPreKey: SignedPreKeyRecord,
        preKeys: [PreKeyRecord],
        kyberPreKeys: [KyberPreKeyRecord]
    ) async throws

    func getPreKeyBundle(userId: String, deviceId: UInt32) async throws -> PreKeyBundle

    func listDevices(userId: String) async throws -> [DeviceInfo]
}

// MARK: - Default Implementation

final class DefaultSignalKeyServerClient: SignalKeyServerClient {
    private let apiClient: APIClient

    init(apiClient: APIClient = .shared) {
        self.apiClient = apiClient
    }

    func uploadKeys(
        deviceId: UInt32,
        registrationId: UInt32,
        identityKey: IdentityKey,
        signedPreKey: SignedPreKeyRecord,
        preKeys: [PreKeyRecord],
        kyberPreKeys: [KyberPreKeyRecord]
    ) async throws {
        let request = UploadSignalKeysRequest(
            deviceId: deviceId,
            registrationId: registrationId,
            identityKey: identityKey.serialize().base64EncodedString(),
            signedPreKey: SignedPreKeyDTO(
                id: signedPreKey.id,
                publicKey: signedPreKey.publicKey.serialize().base64EncodedString(),
                signature: signedPreKey.signature.base64EncodedString()
            ),
            preKeys: preKeys.map { key in
                PreKeyDTO(
                    id: key.id,
                    publicKey: key.publicKey.serialize().base64EncodedString()
                )
            },
            kyberPreKeys: kyberPreKeys.map { key in
                KyberPreKeyDTO(
                    id: key.id,
                    publicKey: key.publicKey.serialize().base64EncodedString(),
                    signature: key.signature.base64EncodedString()
                )
            }
        )

        let _: EmptyResponse = try await apiClient.request(
            endpoint: "/api/v1/e2ee/signal/keys",
            method: "PUT",
            body: request
        )
    }

    func getPreKeyBundle(userId: String, deviceId: UInt32) async throws -> PreKeyBundle {
        let response: PreKeyBundleResponse = try await apiClient.request(
            endpoint: "/api/v1/e2ee/signal/bundle/\(userId)/\(deviceId)",
            method: "GET",
            body: nil as String?
        )

        // Decode keys from Base64
        let identityKey = try IdentityKey(bytes: Data(base64Encoded: response.identityKey)!)
        let signedPreKey = try PublicKey(Data(base64Encoded: response.signedPreKey.publicKey)!)
        let signedPreKeySignature = Data(base64Encoded: response.signedPreKey.signature)!

        // One-time PreKey (optional)
        let preKey: PublicKey?
        let preKeyId: UInt32?
        if let otk = response.oneTimeKey {
            preKey = try PublicKey(Data(base64Encoded: otk.publicKey)!)
            preKeyId = otk.id
        } else {
            preKey = nil
            preKeyId = nil
        }

        // Kyber PreKey
        let kyberPreKey = try KEMPublicKey(Data(base64Encoded: response.kyberPreKey.publicKey)!)
        let kyberSignature = Data(base64Encoded: response.kyberPreKey.signature)!

        // Build PreKeyBundle
        if let preKey = preKey, let preKeyId = preKeyId {
            return try PreKeyBundle(
                registrationId: response.registrationId,
                deviceId: deviceId,
                prekeyId: preKeyId,
                prekey: preKey,
                signedPrekeyId: response.signedPreKey.id,
                signedPrekey: signedPreKey,
                signedPrekeySignature: signedPreKeySignature,
                identity: identityKey,
                kyberPrekeyId: response.kyberPreKey.id,
                kyberPrekey: kyberPreKey,
                kyberPrekeySignature: kyberSignature
            )
        } else {
            return try PreKeyBundle(
                registrationId: response.registrationId,
                deviceId: deviceId,
                signedPrekeyId: response.signedPreKey.id,
                signedPrekey: signedPreKey,
                signedPrekeySignature: signedPreKeySignature,
                identity: identityKey,
                kyberPrekeyId: response.kyberPreKey.id,
                kyberPrekey: kyberPreKey,
                kyberPrekeySignature: kyberSignature
            )
        }
    }

    func listDevices(userId: String) async throws -> [DeviceInfo] {
        let response: ListDevicesResponse = try await apiClient.request(
            endpoint: "/api/v1/e2ee/signal/devices/\(userId)",
            method: "GET",
            body: nil as String?
        )
        return response.devices
    }
}

// MARK: - DTO Models

struct UploadSignalKeysRequest: Codable {
    let deviceId: UInt32
    let registrationId: UInt32
    let identityKey: String
    let signedPreKey: SignedPreKeyDTO
    let preKeys: [PreKeyDTO]
    let kyberPreKeys: [KyberPreKeyDTO]
}

struct SignedPreKeyDTO: Codable {
    let id: UInt32
    let publicKey: String
    let signature: String
}

struct PreKeyDTO: Codable {
    let id: UInt32
    let publicKey: String
}

struct KyberPreKeyDTO: Codable {
    let id: UInt32
    let publicKey: String
    let signature: String
}

struct PreKeyBundleResponse: Codable {
    let userId: String
    let deviceId: UInt32
    let registrationId: UInt32
    let identityKey: String
    let signedPreKey: SignedPreKeyDTO
    let oneTimeKey: PreKeyDTO?
    let kyberPreKey: KyberPreKeyDTO
}

struct DeviceInfo: Codable {
    let deviceId: UInt32
    let registrationId: UInt32
    let deviceName: String?
    let platform: String?
    let lastActiveAt: Int64
}

struct ListDevicesResponse: Codable {
    let devices: [DeviceInfo]
}

struct EmptyResponse: Codable {}
