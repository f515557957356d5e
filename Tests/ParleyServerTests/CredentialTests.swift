import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyPassword
import ParleyServer
import Testing

/// Device credentials are random tokens kept as salted HMAC-SHA256 (as Signal-Server keeps them); Argon2id hashes
/// written by earlier versions keep working and are replaced by the fast form on their first successful use.
@Suite struct CredentialTests {
    static func storedHash(_ harness: ServerHarness, _ member: Member) async throws -> String {
        let (_, devices) = try #require(try await harness.store.accountWithDevices(id: member.accountId))
        return try #require(devices.first { $0.deviceId == member.deviceId }).passwordHash
    }

    /// An Argon2id string as earlier servers stored it (libsodium's minimal limits).
    static func legacyHash(_ password: String) -> String {
        guard let hash = Argon2id.storageHash(of: Array(password.utf8), strength: 1) else { preconditionFailure("libsodium failed") }
        return hash
    }

    @Test func credentialsAreStoredAsSaltedHMACsAndCheckedExactly() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let aliceHash = try await Self.storedHash(harness, alice)
            let bobHash = try await Self.storedHash(harness, bob)
            for hash in [aliceHash, bobHash] {
                let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
                #expect(parts.count == 3 && parts[0] == "hmac-sha256")
                #expect(Data(base64Encoded: String(parts[1]))?.count == 16, "a 16-byte salt")
                #expect(Data(base64Encoded: String(parts[2]))?.count == 32, "an HMAC-SHA256")
                #expect(!hash.contains(alice.password) && !hash.contains(bob.password))
            }
            #expect(try await client.call(.get, APIRoutes.devices, headers: alice.headers).0 == .ok)
            // Bob's credential on Alice's device, a credential one character short, one with a byte flipped.
            let wrong = [
                bob.password, String(alice.password.dropLast()),
                String(alice.password.prefix(3)) + (alice.password.dropFirst(3).first == "A" ? "B" : "A") + alice.password.dropFirst(4),
            ]
            for password in wrong {
                let impostor = Member(accountId: alice.accountId, deviceId: 1, password: password, store: alice.store)
                let (status, body) = try await client.call(.get, APIRoutes.devices, headers: impostor.headers)
                #expect(status == .unauthorized)
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "unauthorized")
            }
        }
    }

    @Test func legacyArgon2CredentialsStillWorkAndAreUpgradedOnFirstUse() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let fast = try await Self.storedHash(harness, alice)
            let legacy = Self.legacyHash(alice.password)
            #expect(legacy.hasPrefix("$argon2id$"))
            #expect(try await harness.store.replaceDeviceCredentialHash(accountId: alice.accountId, deviceId: 1, from: fast, to: legacy))

            // A wrong credential is refused and upgrades nothing.
            let impostor = Member(accountId: alice.accountId, deviceId: 1, password: alice.password + "x", store: alice.store)
            #expect(try await client.call(.get, APIRoutes.devices, headers: impostor.headers).0 == .unauthorized)
            #expect(try await Self.storedHash(harness, alice) == legacy)

            // The right one is accepted and its stored hash becomes the fast form, which then keeps working.
            #expect(try await client.call(.get, APIRoutes.devices, headers: alice.headers).0 == .ok)
            let upgraded = try await Self.storedHash(harness, alice)
            #expect(upgraded.hasPrefix("hmac-sha256$"))
            #expect(upgraded != fast, "a fresh salt")
            #expect(try await client.call(.get, APIRoutes.devices, headers: alice.headers).0 == .ok)
            #expect(try await client.call(.get, APIRoutes.devices, headers: impostor.headers).0 == .unauthorized)
            #expect(try await Self.storedHash(harness, alice) == upgraded)
        }
    }

    @Test func anUpgradeNeverOverwritesACredentialReplacedMeanwhile() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let current = try await Self.storedHash(harness, alice)
            #expect(
                try await harness.store.replaceDeviceCredentialHash(
                    accountId: alice.accountId, deviceId: 1, from: "$argon2id$stale", to: "hmac-sha256$x$y") == false)
            #expect(try await Self.storedHash(harness, alice) == current)
        }
    }
}
