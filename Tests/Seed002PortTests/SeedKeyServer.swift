import Foundation
import Synchronization

/// The key server seed 002's client talks to, in memory: `PUT /api/v1/e2ee/signal/keys` stores a device's keys,
/// `GET /api/v1/e2ee/signal/bundle/{user}/{device}` hands out a bundle and uses up one one-time prekey and one KEM
/// prekey, `GET /api/v1/e2ee/signal/devices/{user}` lists devices. JSON in and out, with the seed's own DTOs.
final class SeedKeyServer: Sendable {
    enum Failure: Error {
        case notFound(String)
        case badRequest(String)
    }

    private struct Device {
        var upload: UploadSignalKeysRequest
        var preKeys: [PreKeyDTO]
        var kyberPreKeys: [KyberPreKeyDTO]
    }

    private let devices = Mutex<[String: [UInt32: Device]]>([:])

    func handle(method: String, path: String, body: Data?, user: String) throws -> Data {
        let parts = path.split(separator: "/").map(String.init)
        switch (method, parts.count) {
        case ("PUT", _) where path == "/api/v1/e2ee/signal/keys":
            guard let body else { throw Failure.badRequest("no body") }
            let upload = try JSONDecoder().decode(UploadSignalKeysRequest.self, from: body)
            devices.withLock {
                $0[user, default: [:]][upload.deviceId] = Device(upload: upload, preKeys: upload.preKeys, kyberPreKeys: upload.kyberPreKeys)
            }
            return try JSONEncoder().encode(EmptyResponse())
        case ("GET", 7) where parts[4] == "bundle":
            let (owner, deviceText) = (parts[5], parts[6])
            guard let deviceId = UInt32(deviceText) else { throw Failure.badRequest("device id \(deviceText)") }
            let response = try devices.withLock { devices -> PreKeyBundleResponse in
                guard var device = devices[owner]?[deviceId] else { throw Failure.notFound("\(owner).\(deviceId)") }
                guard !device.kyberPreKeys.isEmpty else { throw Failure.notFound("no KEM prekey left for \(owner).\(deviceId)") }
                let oneTime = device.preKeys.isEmpty ? nil : device.preKeys.removeFirst()
                let kyber = device.kyberPreKeys.removeFirst()
                devices[owner]?[deviceId] = device
                return PreKeyBundleResponse(
                    userId: owner, deviceId: deviceId, registrationId: device.upload.registrationId,
                    identityKey: device.upload.identityKey, signedPreKey: device.upload.signedPreKey, oneTimeKey: oneTime,
                    kyberPreKey: kyber)
            }
            return try JSONEncoder().encode(response)
        case ("GET", 6) where parts[4] == "devices":
            let listed = devices.withLock { devices in
                (devices[parts[5]] ?? [:]).values.map {
                    DeviceInfo(
                        deviceId: $0.upload.deviceId, registrationId: $0.upload.registrationId, deviceName: nil,
                        platform: "test", lastActiveAt: 0)
                }
            }
            return try JSONEncoder().encode(ListDevicesResponse(devices: listed))
        default:
            throw Failure.notFound("\(method) \(path)")
        }
    }

    /// How many one-time prekeys `user`'s device has left.
    func remainingPreKeys(user: String, deviceId: UInt32) -> Int {
        devices.withLock { $0[user]?[deviceId]?.preKeys.count ?? 0 }
    }
}
