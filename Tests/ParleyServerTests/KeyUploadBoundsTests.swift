import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// A device cannot fill the store with keys nobody claims, nor buy signature checks without limit: uploads past the
/// stored bound are refused with nothing stored, and uploads are rate-limited per account.
@Suite struct KeyUploadBoundsTests {
    /// `count` one-time Curve25519 prekeys with ids from `first`.
    static func preKeys(from first: UInt32, count: Int) -> UploadKeysRequest {
        UploadKeysRequest(
            signedPreKey: nil,
            preKeys: (0..<UInt32(count)).map { offset in
                PreKeyEntity(keyId: first + offset, publicKey: PrivateKey.generate().publicKey.serialize().base64EncodedString())
            }, kemPreKeys: [], lastResortKemPreKey: nil)
    }

    @Test func uploadsPastTheStoredBoundAreRefused() async throws {
        var limits = ServerLimits()
        limits.storedKeysPerKind = 250
        try await ServerHarness(limits: limits).run { client in
            let alice = try await client.register("alice")
            for first in [UInt32(1), 101] {
                #expect(
                    try await client.call(.put, APIRoutes.keys, headers: alice.headers, json: Self.preKeys(from: first, count: 100)).0
                        == .noContent)
            }
            let (status, body) = try await client.call(
                .put, APIRoutes.keys, headers: alice.headers, json: Self.preKeys(from: 201, count: 100))
            #expect(status == .badRequest)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).message.contains("at most 250"))
            let (_, countBody) = try await client.call(.get, APIRoutes.keyCount, headers: alice.headers)
            #expect(
                try JSONDecoder().decode(PreKeyCountResponse.self, from: countBody).count == 200, "nothing of the refused upload stored")
            // Up to the bound is fine.
            #expect(
                try await client.call(.put, APIRoutes.keys, headers: alice.headers, json: Self.preKeys(from: 201, count: 50)).0
                    == .noContent)
        }
    }

    @Test func uploadsAreRateLimitedPerAccount() async throws {
        var limits = ServerLimits()
        limits.rateLimits.keyUpload = TokenBucketPolicy(capacity: 3, refillPerSecond: 0.001)
        try await ServerHarness(limits: limits).run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            for round in 0..<3 {
                #expect(
                    try await client.call(
                        .put, APIRoutes.keys, headers: alice.headers, json: Self.preKeys(from: UInt32(round * 10 + 1), count: 5)
                    ).0 == .noContent)
            }
            let (status, _) = try await client.call(.put, APIRoutes.keys, headers: alice.headers, json: Self.preKeys(from: 100, count: 5))
            #expect(status == .tooManyRequests)
            #expect(
                try await client.call(.put, APIRoutes.keys, headers: bob.headers, json: Self.preKeys(from: 1, count: 5)).0 == .noContent,
                "another account has its own bucket")
        }
    }
}
