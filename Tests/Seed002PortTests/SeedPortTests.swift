import Foundation
import ParleyProtocol
import Testing

/// Seed 002's three Swift files, written for LibSignalClient, compiled against ParleyProtocol with only the import
/// changed (see README.md in this folder), and run: two users register their keys with the seed's key-server client,
/// open a PQXDH session from a fetched bundle, and exchange messages through the seed's `SignalE2EEService`.
@Suite struct SeedPortTests {
    /// One user of the seed's service, with their own keychain.
    struct User {
        let name: String
        let keychain: KeychainService
        let service: SignalE2EEService
        let deviceId: UInt32

        @MainActor init(_ name: String, server: SeedKeyServer) async throws {
            let keychain = KeychainService()
            self.name = name
            self.keychain = keychain
            service = KeychainService.$current.withValue(keychain) {
                SignalE2EEService(userId: name, apiClient: DefaultSignalKeyServerClient(apiClient: APIClient(user: name, server: server)))
            }
            deviceId = UInt32(keychain.get("signal.device.id")!)!
            try await service.initialize()
        }
    }

    @MainActor @Test func twoUsersTalkThroughTheSeedsServiceUnchanged() async throws {
        let server = SeedKeyServer()
        let alice = try await User("alice", server: server)
        let bob = try await User("bob", server: server)
        #expect(alice.keychain.count(prefix: "signal.prekey.") == 100)
        #expect(alice.keychain.count(prefix: "signal.kyberprekey.") == 10)
        #expect(server.remainingPreKeys(user: "bob", deviceId: bob.deviceId) == 100)

        // Alice has no session: the service fetches Bob's bundle, runs PQXDH and sends a pre-key message.
        let first = try await alice.service.encrypt(message: "hello bob", for: "bob", deviceId: bob.deviceId)
        #expect(first.type == .preKey)
        #expect(server.remainingPreKeys(user: "bob", deviceId: bob.deviceId) == 99)
        // The message crosses the wire as the seed's Codable struct (its own `MessageType: Codable` extension).
        let wire = try JSONDecoder().decode(SignalEncryptedMessage.self, from: try JSONEncoder().encode(first))
        #expect(try bob.service.decrypt(wire, from: "alice") == "hello bob")
        #expect(bob.keychain.count(prefix: "signal.prekey.") == 99, "the one-time prekey is used up")

        let reply = try await bob.service.encrypt(message: "hi alice", for: "alice", deviceId: alice.deviceId)
        #expect(reply.type == .whisper, "Bob answers on the session Alice set up")
        #expect(try alice.service.decrypt(reply, from: "bob") == "hi alice")
        let second = try await alice.service.encrypt(message: "again", for: "bob", deviceId: bob.deviceId)
        #expect(try bob.service.decrypt(second, from: "alice") == "again")

        // A message that does not decrypt throws LibSignalClient's error, and nothing of it is kept.
        var tampered = try await alice.service.encrypt(message: "tampered", for: "bob", deviceId: bob.deviceId)
        var content = tampered.content
        content[content.count - 1] ^= 1
        tampered = SignalEncryptedMessage(
            type: tampered.type, destinationUserId: tampered.destinationUserId,
            destinationDeviceId: tampered.destinationDeviceId,
            senderDeviceId: tampered.senderDeviceId, content: content)
        #expect(throws: SignalError.self) { try bob.service.decrypt(tampered, from: "alice") }
    }

    @MainActor @Test func theGroupEntryPointMakesADistributionMessageFromTheStore() async throws {
        let server = SeedKeyServer()
        let alice = try await User("alice", server: server)
        let group = UUID()
        let distribution = try await alice.service.encryptForGroup(message: "unused by the seed", groupId: group, members: [])
        let parsed = try SenderKeyDistributionMessage(bytes: distribution.serialize())
        #expect(parsed.chainKey.count == 32)
        #expect(alice.keychain.count(prefix: "signal.senderkey.") == 1)
    }
}
