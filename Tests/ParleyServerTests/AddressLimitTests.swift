import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// The routes that take no credentials are limited per client address (there is no account to count against):
/// registrations on their own bucket, link attempts, provisioning fetches and PIN-backup guesses on a shared one. A
/// refusal is 429 with `Retry-After`; other addresses and authenticated routes are unaffected.
@Suite struct AddressLimitTests {
    @Test func registrationsAndSecretLookupsFromOneAddressAreLimited() async throws {
        var limits = ServerLimits()
        limits.rateLimits.registrationPerAddress = TokenBucketPolicy(capacity: 3, refillPerSecond: 0.001)
        limits.rateLimits.unauthenticatedPerAddress = TokenBucketPolicy(capacity: 4, refillPerSecond: 0.001)
        try await ServerHarness(limits: limits).runLive { client in
            // The live server sees 127.0.0.1: three registrations, then 429.
            let alice = try await client.register("alice")
            _ = try await client.register("bob")
            _ = try await client.register("carol")
            let request = RegisterAccountRequest(username: "dave", identityKey: Data([5] + [UInt8](repeating: 9, count: 32)).base64EncodedString(),
                                                 registrationId: 7, password: DeviceCredentialsFixture.password, deviceName: nil)
            let (refused, body) = try await client.execute(
                uri: APIRoutes.accounts, method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: try JSONEncoder().encode(request))
            ) { response in (response, Data(response.body.readableBytesView)) }
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "rate_limited")

            // Link attempts, provisioning fetches and backup guesses share one bucket of 4.
            let link = LinkDeviceRequest(code: "not-a-code", registrationId: 7, password: DeviceCredentialsFixture.password, deviceName: nil)
            #expect(try await client.call(.put, APIRoutes.linkDevice, json: link).0 == .forbidden)
            #expect(try await client.call(.get, APIRoutes.provisioning(String(repeating: "A", count: 43))).0 == .notFound)
            #expect(try await client.call(.post, BackupRoutes.evaluate(username: "nobody"),
                                          json: BackupEvaluationRequest(blindedElement: Data(repeating: 1, count: 32).base64EncodedString())).0 == .notFound)
            #expect(try await client.call(.get, APIRoutes.provisioning(String(repeating: "B", count: 43))).0 == .notFound)
            #expect(try await client.call(.put, APIRoutes.linkDevice, json: link).0 == .tooManyRequests)
            #expect(try await client.call(.get, APIRoutes.provisioning(String(repeating: "C", count: 43))).0 == .tooManyRequests)
            #expect(try await client.call(.post, BackupRoutes.restore(username: "nobody"), raw: "{}").0 == .tooManyRequests)

            // A device's own requests are counted against its account, not its address.
            #expect(try await client.call(.get, APIRoutes.devices, headers: alice.headers).0 == .ok)
            #expect(try await client.call(.get, APIRoutes.health).0 == .ok)
        }
    }
}

/// A password of the form the server accepts.
enum DeviceCredentialsFixture {
    static let password = Data(repeating: 0x5A, count: 24).base64EncodedString()
}
