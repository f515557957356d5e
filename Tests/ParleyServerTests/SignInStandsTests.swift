import Foundation
import HummingbirdTesting
import ParleyAPI
import Testing

@testable import ParleyServer

/// `DeviceAuthenticator.signInStands(_:)`, which a socket asks once it is subscribed to the hub (a revocation between
/// its upgrade's sign-in and its subscription found no connection to close): a sign-in stands while its device is
/// stored with the credential hash it signed in with and the account is not disabled.
@Suite struct SignInStandsTests {
    @Test func aSignInStandsUntilItsCredentialIsReplacedOrItsAccountDisabledOrDeleted() async throws {
        let harness = try ServerHarness()
        let authenticator = harness.dependencies.authenticator
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let aliceDevice = try await authenticator.authenticate(
                accountId: alice.accountId, deviceId: 1, credential: Array(alice.password.utf8))
            let bobDevice = try await authenticator.authenticate(
                accountId: bob.accountId, deviceId: 1, credential: Array(bob.password.utf8))
            #expect(try await authenticator.signInStands(aliceDevice))
            #expect(try await authenticator.signInStands(bobDevice))

            // Alice's credential replaced (a re-registration, a reset): the old sign-in no longer stands.
            #expect(
                try await harness.store.replaceDeviceCredentialHash(
                    accountId: alice.accountId, deviceId: 1, from: aliceDevice.device.passwordHash,
                    to: CredentialHasher().hash(Array("new".utf8))))
            #expect(try await authenticator.signInStands(aliceDevice) == false)

            // Bob's account disabled by the operator, then enabled again, then deleted.
            let disable = { (disabled: Bool) in
                try await client.call(
                    .put, OperatorRoutes.accountDisabled(bob.accountId), headers: AccountAdministrationTests.operatorHeaders,
                    json: AccountDisabledRequest(disabled: disabled)
                ).0
            }
            #expect(try await disable(true) == .noContent)
            #expect(try await authenticator.signInStands(bobDevice) == false)
            #expect(try await disable(false) == .noContent)
            #expect(try await authenticator.signInStands(bobDevice))
            #expect(
                try await client.call(.delete, OperatorRoutes.account(bob.accountId), headers: AccountAdministrationTests.operatorHeaders).0
                    == .noContent)
            #expect(try await authenticator.signInStands(bobDevice) == false)
        }
    }

    /// Several first uses of an earlier server's Argon2id credential at once: one re-hashes it, and the others — whose
    /// re-hash finds the stored hash already replaced — sign in with the winner's hash, so every one of them stands
    /// (before, a loser kept the old hash and its socket would have been closed as revoked). Whether a sign-in loses
    /// the race is up to the scheduler: without the fix this failed in each of three runs here, not by construction.
    @Test func concurrentFirstUsesOfALegacyCredentialAllStand() async throws {
        let harness = try ServerHarness()
        // Eight legacy checks may run at once (the server's default is one, and the others would be answered 429).
        let authenticator = DeviceAuthenticator(store: harness.store, hasher: CredentialHasher(legacyVerificationLimit: 8))
        try await harness.run { client in
            let alice = try await client.register("alice")
            let fast = try await CredentialTests.storedHash(harness, alice)
            #expect(
                try await harness.store.replaceDeviceCredentialHash(
                    accountId: alice.accountId, deviceId: 1, from: fast, to: CredentialTests.legacyHash(alice.password)))
            let devices = try await withThrowingTaskGroup(of: AuthenticatedDevice.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await authenticator.authenticate(
                            accountId: alice.accountId, deviceId: 1, credential: Array(alice.password.utf8))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let stored = try await CredentialTests.storedHash(harness, alice)
            #expect(stored.hasPrefix("hmac-sha256$"))
            for device in devices {
                #expect(device.device.passwordHash == stored)
                #expect(try await authenticator.signInStands(device))
            }
        }
    }
}
