import Foundation
import HTTPTypes
import ParleyAPI
import Testing

@testable import ParleyServer

/// One credential check per socket: the upgrade filter authenticates and leaves a one-time ticket that the router's
/// decision and the session both read (``VerifiedUpgrades``); a ticket a client makes up, reuses or sends without valid
/// credentials upgrades nothing.
@Suite struct VerifiedUpgradesTests {
    static func device(_ id: String) -> AuthenticatedDevice {
        AuthenticatedDevice(
            account: StoredAccount(id: id, username: id, identityKey: [5] + [UInt8](repeating: 1, count: 32)),
            device: StoredDevice(accountId: id, deviceId: 1, registrationId: 1, name: nil, passwordHash: "", created: 0))
    }

    @Test func aTicketNamesItsDeviceUntilItIsTakenOnce() {
        let upgrades = VerifiedUpgrades()
        let ticket = upgrades.issue(for: Self.device("a"))
        #expect(upgrades.device(for: ticket)?.account.id == "a")
        #expect(upgrades.device(for: ticket)?.account.id == "a", "asking does not use it up")
        #expect(upgrades.device(for: "made-up") == nil && upgrades.device(for: nil) == nil)
        #expect(upgrades.take(ticket)?.account.id == "a")
        #expect(upgrades.take(ticket) == nil && upgrades.device(for: ticket) == nil, "good once")
        #expect(upgrades.issue(for: Self.device("b")) != upgrades.issue(for: Self.device("b")))
    }

    @Test func theTableIsBoundedOldestFirst() {
        let upgrades = VerifiedUpgrades()
        let first = upgrades.issue(for: Self.device("first"))
        for index in 0..<VerifiedUpgrades.capacity { _ = upgrades.issue(for: Self.device("d\(index)")) }
        #expect(upgrades.device(for: first) == nil, "the oldest went when the table was full")
        #expect(upgrades.count == VerifiedUpgrades.capacity)
    }

    @Test func aTicketAClientSendsIsNeverRead() async throws {
        try await ServerHarness().runLive { client in
            let bob = try await client.register("bob")
            let offer: HTTPFields = [
                .upgrade: "websocket", .connection: "Upgrade", .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ==",
                .secWebSocketVersion: "13", HTTPField.Name(VerifiedUpgrades.header)!: "made-up",
            ]
            // No credentials, or wrong ones: the made-up ticket upgrades nothing; the route's 401 JSON answers.
            #expect(try await client.execute(uri: APIRoutes.webSocket, method: .get, headers: offer).status == .unauthorized)
            var wrong = offer
            wrong[.authorization] = "Basic " + Data("\(bob.accountId).1:wrong".utf8).base64EncodedString()
            #expect(try await client.execute(uri: APIRoutes.webSocket, method: .get, headers: wrong).status == .unauthorized)
        }
    }
}
