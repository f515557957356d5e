import Foundation
import Testing

@_spi(Inspection) @testable import ParleyKit

/// One-time keys are refilled when the server runs low; the signed prekey rotates when it is due.
@Suite struct KeyMaintenanceTests {
    @Test func lowOneTimeKeysAreRefilledAndOldSignedPreKeysRotated() async throws {
        try await TestServer.run { server in
            let alice = try server.client("alice")
            let bob = try server.client("bob")
            let aliceCredentials = try await alice.accounts.register(username: "alice")
            _ = try await bob.accounts.register(username: "bob")
            #expect(try await alice.maintainKeys() == false)  // 100 of each kind on the server
            for _ in 0..<95 {
                _ = try await bob.api.bundle(accountId: aliceCredentials.accountId, deviceId: 1, as: try bob.credentials())
            }
            #expect(try await alice.api.preKeyCount(as: aliceCredentials).count == 5)
            #expect(try await alice.accounts.refillPreKeysIfNeeded())
            let counts = try await alice.api.preKeyCount(as: aliceCredentials)
            #expect(counts.count == 105 && counts.kemCount == 105)
            let later = UInt64(Date().timeIntervalSince1970 * 1000) + AccountManager.signedPreKeyLifetime + 1
            #expect(try await alice.accounts.rotateSignedPreKeyIfDue(now: later))
            #expect(try await alice.accounts.rotateSignedPreKeyIfDue(now: later) == false)
            // Sessions built from the new signed prekey still work.
            try bob.sender.enqueue(body: "after rotation", to: aliceCredentials.accountId)
            #expect(try await bob.runJobs().completed == 1)
            #expect(try await alice.receiveOnce().count == 1)
        }
    }
}
