import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import Testing

@testable import ParleyServer

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
            let request = RegisterAccountRequest(
                username: "dave", identityKey: Data([5] + [UInt8](repeating: 9, count: 32)).base64EncodedString(),
                registrationId: 7, password: DeviceCredentialsFixture.password, deviceName: nil)
            let (refused, body) = try await client.execute(
                uri: APIRoutes.accounts, method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: try JSONEncoder().encode(request))
            ) { response in (response, Data(response.body.readableBytesView)) }
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "rate_limited")

            // Link attempts, provisioning fetches and backup guesses share one bucket of 4.
            let link = LinkDeviceRequest(
                code: "not-a-code", registrationId: 7, password: DeviceCredentialsFixture.password, deviceName: nil)
            #expect(try await client.call(.put, APIRoutes.linkDevice, json: link).0 == .forbidden)
            #expect(try await client.call(.get, APIRoutes.provisioning(String(repeating: "A", count: 43))).0 == .notFound)
            // (32 bytes that are no ristretto255 element: a 400, for an unknown name as for a registered one.)
            #expect(
                try await client.call(
                    .post, BackupRoutes.evaluate(account: "nobody"),
                    json: BackupEvaluationRequest(blindedElement: Data(repeating: 1, count: 32).base64EncodedString())
                ).0 == .badRequest)
            #expect(try await client.call(.get, APIRoutes.provisioning(String(repeating: "B", count: 43))).0 == .notFound)
            #expect(try await client.call(.put, APIRoutes.linkDevice, json: link).0 == .tooManyRequests)
            #expect(try await client.call(.get, APIRoutes.provisioning(String(repeating: "C", count: 43))).0 == .tooManyRequests)
            #expect(try await client.call(.post, BackupRoutes.restore(account: "nobody"), raw: "{}").0 == .tooManyRequests)

            // A device's own requests are counted against its account, not its address.
            #expect(try await client.call(.get, APIRoutes.devices, headers: alice.headers).0 == .ok)
            #expect(try await client.call(.get, APIRoutes.health).0 == .ok)
        }
    }
}

extension AddressLimitTests {
    @Test func behindATrustedProxyTheForwardedClientIsCounted() async throws {
        var limits = ServerLimits()
        limits.rateLimits.registrationPerAddress = TokenBucketPolicy(capacity: 2, refillPerSecond: 0.001)
        limits.connections.trustedProxies = ["127.0.0.1"]
        try await ServerHarness(limits: limits).runLive { (client: any TestClientProtocol) async throws in
            #expect(try await Self.register("one", forwardedFor: "203.0.113.5", client) == .created)
            // A client-written hop left of the proxy's is not believed: the proxy appended 203.0.113.5.
            #expect(try await Self.register("two", forwardedFor: "198.51.100.1, 203.0.113.5", client) == .created)
            #expect(try await Self.register("three", forwardedFor: "203.0.113.5", client) == .tooManyRequests)
            #expect(
                try await Self.register("four", forwardedFor: "203.0.113.6", client) == .created, "another client behind the same proxy")
            // IPv6 clients are counted by their /64.
            #expect(try await Self.register("five", forwardedFor: "2001:db8:1:2::1", client) == .created)
            #expect(try await Self.register("six", forwardedFor: "2001:db8:1:2:ffff::7", client) == .created)
            #expect(try await Self.register("seven", forwardedFor: "2001:db8:1:2::99", client) == .tooManyRequests)
        }
    }

    static func register(_ name: String, forwardedFor: String?, _ client: any TestClientProtocol) async throws -> HTTPResponse.Status {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let forwardedFor { headers[HTTPField.Name("X-Forwarded-For")!] = forwardedFor }
        let request = RegisterAccountRequest(
            username: name, identityKey: Data([5] + [UInt8](repeating: 9, count: 32)).base64EncodedString(),
            registrationId: 7, password: DeviceCredentialsFixture.password, deviceName: nil)
        let response = try await client.execute(
            uri: APIRoutes.accounts, method: .post, headers: headers,
            body: ByteBuffer(bytes: try JSONEncoder().encode(request)))
        return response.status
    }

    @Test func addressesAreCountedByClientAndIPv6ByNetwork() {
        #expect(ClientAddress.limitKey("192.0.2.7") == "192.0.2.7")
        #expect(ClientAddress.limitKey("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(ClientAddress.limitKey("2001:db8:1:2::") == ClientAddress.limitKey("2001:DB8:1:2:ffff:ffff:ffff:ffff"))
        #expect(ClientAddress.limitKey("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(ClientAddress.limitKey("not an address") == "not an address")
        let proxies: Set<String> = ["10.0.0.1", "10.0.0.2"]
        #expect(
            ClientAddress.client(peer: "192.0.2.1", forwardedFor: ["203.0.113.9"], trustedProxies: proxies) == "192.0.2.1",
            "a direct client's header is not believed")
        #expect(ClientAddress.client(peer: "10.0.0.1", forwardedFor: ["203.0.113.9, 10.0.0.2"], trustedProxies: proxies) == "203.0.113.9")
        #expect(ClientAddress.client(peer: "10.0.0.1", forwardedFor: ["spoofed", "203.0.113.9"], trustedProxies: proxies) == "203.0.113.9")
        #expect(ClientAddress.client(peer: "10.0.0.1", forwardedFor: ["not-an-ip"], trustedProxies: proxies) == "10.0.0.1")
        #expect(ClientAddress.client(peer: "10.0.0.1", forwardedFor: [], trustedProxies: proxies) == "10.0.0.1")
    }
}

/// A password of the form the server accepts.
enum DeviceCredentialsFixture {
    static let password = Data(repeating: 0x5A, count: 24).base64EncodedString()
}
