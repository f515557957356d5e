import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Histogram
import ParleyAPI
import ParleyGRPC
import ParleyKit
import ParleyProtocol

/// Prekey bundle fetches as fast as the server answers, over REST and then over gRPC (seed 002's
/// `GetPreKeyBundle`) against the same account: `workers` loops, each a device of its own, for `duration` seconds per
/// transport. The target device publishes a signed prekey, 100 one-time and 100 KEM prekeys and a last-resort KEM
/// prekey; once the one-time keys are claimed, bundles carry the last-resort key (every fetch still runs the claim).
struct BundleFetchRun {
    let api: ParleyServerClient
    let grpcHost: String
    let grpcPort: Int
    let workers: Int
    let duration: Int
    let serverPid: Int32?

    struct Measurement {
        let fetches: Int
        let errors: Int
        let seconds: Double
        let latency: Histogram<UInt64>
        let serverCPU: Double?
    }

    func execute() async throws -> String {
        let tag = UUID().uuidString.prefix(6).lowercased()
        let (target, targetIdentity) = try await registerWithKeys(name: "bundles-\(tag)")
        let fetchers = try await LoadAccount.register(api, count: workers, prefix: "fetcher-\(tag)")
        let rest = try await measure(fetchers) { fetcher in
            let bundle = try await api.bundle(accountId: target.accountId, deviceId: 1, as: fetcher.credentials)
            guard bundle.identityKey == targetIdentity else { throw BundleFetchError.wrongBundle }
        }
        let transport = try HTTP2ClientTransport.Posix(target: .ipv4(address: grpcHost, port: grpcPort), transportSecurity: .plaintext)
        let grpc = try await withGRPCClient(transport: transport) { client in
            let keys = Nova_Signal_E2ee_V1_SignalE2EEService.Client(wrapping: client)
            return try await measure(fetchers) { fetcher in
                var request = Nova_Signal_E2ee_V1_GetPreKeyBundleRequest()
                request.userID = target.accountId
                request.deviceID = 1
                let authorization =
                    "Basic " + Data("\(fetcher.credentials.accountId).1:\(fetcher.credentials.password)".utf8).base64EncodedString()
                let bundle = try await keys.getPreKeyBundle(request, metadata: ["authorization": .string(authorization)])
                guard bundle.identityKey.base64EncodedString() == targetIdentity else { throw BundleFetchError.wrongBundle }
            }
        }
        func line(_ name: String, _ m: Measurement) -> String {
            func ms(_ percentile: Double) -> String { String(format: "%.2f", Double(m.latency.valueAtPercentile(percentile)) / 1000) }
            let cpu = m.serverCPU.map { String(format: ", server CPU %.0f µs per fetch", $0 * 1e6 / Double(max(m.fetches, 1))) } ?? ""
            return
                "\(name): \(m.fetches) bundles in \(String(format: "%.1f", m.seconds)) s (\(String(format: "%.0f", Double(m.fetches) / m.seconds))/s), "
                + "errors \(m.errors); latency ms p50 \(ms(50)), p99 \(ms(99))\(cpu)"
        }
        return """
            GetPreKeyBundle, \(workers) concurrent callers, \(duration) s per transport
            \(line("REST GET /v1/keys/{account}/1", rest))
            \(line("gRPC SignalE2EEService/GetPreKeyBundle", grpc))
            """
    }

    /// Registers an account with a real identity and uploads a full set of signed keys over REST.
    private func registerWithKeys(name: String) async throws -> (credentials: DeviceCredentials, identityKey: String) {
        let identity = IdentityKeyPair.generate()
        let password = DeviceCredentials.makePassword()
        let b64 = { (bytes: Data) in bytes.base64EncodedString() }
        let response = try await api.register(
            RegisterAccountRequest(
                username: name, identityKey: b64(identity.publicKey.serialize()), registrationId: 7, password: password,
                deviceName: "bundles"))
        let credentials = DeviceCredentials(accountId: response.accountId, deviceId: 1, password: password)
        let signed = SignedPreKeyRecord.generate(id: 1, timestamp: 0, signedBy: identity.privateKey)
        let kem = { (id: UInt32) throws -> SignedPreKeyEntity in
            let record = KyberPreKeyRecord.generate(id: id, timestamp: 0, signedBy: identity.privateKey)
            return SignedPreKeyEntity(keyId: id, publicKey: b64(try record.publicKey().serialize()), signature: b64(record.signature))
        }
        try await api.uploadKeys(
            UploadKeysRequest(
                signedPreKey: SignedPreKeyEntity(
                    keyId: 1, publicKey: b64(try signed.publicKey().serialize()), signature: b64(signed.signature)),
                preKeys: try (1...100).map {
                    PreKeyEntity(keyId: $0, publicKey: b64(try PreKeyRecord.generate(id: $0).publicKey().serialize()))
                },
                kemPreKeys: try (1...100).map(kem), lastResortKemPreKey: try kem(9999)), as: credentials)
        return (credentials, b64(identity.publicKey.serialize()))
    }

    /// Runs `fetch` in `workers` loops for `duration` seconds.
    private func measure(_ fetchers: [LoadAccount], _ fetch: @escaping @Sendable (LoadAccount) async throws -> Void) async throws
        -> Measurement
    {
        let clock = ContinuousClock()
        let cpuBefore = serverPid.flatMap(cpuSeconds(pid:))
        let started = clock.now
        let deadline = started + .seconds(duration)
        let results = try await withThrowingTaskGroup(of: (Int, Int, Histogram<UInt64>).self) { group in
            for fetcher in fetchers {
                group.addTask {
                    var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
                    var fetches = 0
                    var errors = 0
                    while clock.now < deadline {
                        let before = clock.now
                        do {
                            try await fetch(fetcher)
                            fetches += 1
                            let elapsed = clock.now - before
                            _ = latency.record(microseconds(elapsed))
                        } catch {
                            errors += 1
                        }
                    }
                    return (fetches, errors, latency)
                }
            }
            var all: [(Int, Int, Histogram<UInt64>)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let elapsed = clock.now - started
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for result in results { latency.add(result.2) }
        let cpuAfter = serverPid.flatMap(cpuSeconds(pid:))
        return Measurement(
            fetches: results.map(\.0).reduce(0, +), errors: results.map(\.1).reduce(0, +),
            seconds: seconds(elapsed), latency: latency,
            serverCPU: cpuBefore.flatMap { before in cpuAfter.map { $0 - before } })
    }
}

/// A bundle that is not the target's.
enum BundleFetchError: Error {
    case wrongBundle
}
