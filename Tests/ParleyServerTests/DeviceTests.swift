import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

@Suite struct DeviceTests {
    static func linkRequest(code: String, registrationId: UInt32 = 77) -> (LinkDeviceRequest, String) {
        let password = Data((0..<20).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        return (LinkDeviceRequest(code: code, registrationId: registrationId, password: password, deviceName: "phone"), password)
    }

    static func issueCode(_ client: some TestClientProtocol, for member: Member) async throws -> String {
        let (status, body) = try await client.call(.post, APIRoutes.linkCode, headers: member.headers, raw: nil)
        #expect(status == .created)
        return try JSONDecoder().decode(LinkCodeResponse.self, from: body).code
    }

    @Test func linkCodeAddsADeviceOnceAndTheSenderMustRepair() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let code = try await Self.issueCode(client, for: bob)
            let (request, password) = Self.linkRequest(code: code)
            let (status, body) = try await client.call(.put, APIRoutes.linkDevice, json: request)
            #expect(status == .created)
            let linked = try JSONDecoder().decode(RegisterAccountResponse.self, from: body)
            let trustRoot = harness.dependencies.sealedSender.trustRoot.serialize().base64EncodedString()
            #expect(linked == RegisterAccountResponse(accountId: bob.accountId, deviceId: 2, sealedSenderTrustRoot: trustRoot))
            #expect(try await client.call(.put, APIRoutes.linkDevice, json: request).0 == .forbidden, "a code works once")

            let phone = Member(accountId: bob.accountId, deviceId: 2, password: password, store: InMemorySignalProtocolStore())
            let (_, list) = try await client.call(.get, APIRoutes.devices, headers: phone.headers)
            #expect(try JSONDecoder().decode(DeviceListResponse.self, from: list).devices.map(\.deviceId) == [1, 2])

            // Alice only knows device 1: the server tells her about device 2.
            let registration = try bob.store.localRegistrationId(context: NullContext())
            let send = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: registration)], timestamp: 1)
            let (sendStatus, sendBody) = try await client.call(
                .put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: send)
            #expect(sendStatus == .conflict)
            #expect(try JSONDecoder().decode(MismatchedDevicesResponse.self, from: sendBody).missingDevices == [2])
            let repaired = SendMessagesRequest(
                messages: [
                    MessageTests.message(1, registrationId: registration), MessageTests.message(2, registrationId: 77),
                ], timestamp: 1)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: repaired).0 == .ok)
            // Bob's primary sending to his own account must include the phone, and not itself.
            let own = SendMessagesRequest(messages: [MessageTests.message(2, registrationId: 77)], timestamp: 2)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: bob.headers, json: own).0 == .ok)
        }
    }

    @Test func removedDeviceLosesItsMailboxKeysAndAccess() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let (request, password) = Self.linkRequest(code: try await Self.issueCode(client, for: bob))
            _ = try await client.call(.put, APIRoutes.linkDevice, json: request)
            let phone = Member(accountId: bob.accountId, deviceId: 2, password: password, store: InMemorySignalProtocolStore())
            let registration = try bob.store.localRegistrationId(context: NullContext())
            let send = SendMessagesRequest(
                messages: [
                    MessageTests.message(1, registrationId: registration), MessageTests.message(2, registrationId: 77),
                ], timestamp: 1)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: send).0 == .ok)

            #expect(try await client.call(.delete, APIRoutes.device(1), headers: phone.headers).0 == .forbidden)
            #expect(try await client.call(.delete, APIRoutes.device(2), headers: bob.headers).0 == .noContent)
            #expect(try await client.call(.delete, APIRoutes.device(2), headers: bob.headers).0 == .notFound)
            #expect(try await client.call(.get, APIRoutes.mailbox, headers: phone.headers).0 == .unauthorized)
            let (_, list) = try await client.call(.get, APIRoutes.devices, headers: bob.headers)
            #expect(try JSONDecoder().decode(DeviceListResponse.self, from: list).devices.map(\.deviceId) == [1])
            // A sender that still lists device 2 is told it is extra.
            let (status, body) = try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: send)
            #expect(status == .conflict)
            #expect(try JSONDecoder().decode(MismatchedDevicesResponse.self, from: body).extraDevices == [2])
        }
    }

    @Test func linkedDevicesCannotManageOtherDevices() async throws {
        try await ServerHarness().run { client in
            let bob = try await client.register("bob")
            var phones: [Member] = []
            for _ in 0..<2 {
                let (request, password) = Self.linkRequest(code: try await Self.issueCode(client, for: bob))
                let (_, body) = try await client.call(.put, APIRoutes.linkDevice, json: request)
                let linked = try JSONDecoder().decode(RegisterAccountResponse.self, from: body)
                phones.append(
                    Member(accountId: bob.accountId, deviceId: linked.deviceId, password: password, store: InMemorySignalProtocolStore()))
            }
            #expect(try await client.call(.post, APIRoutes.linkCode, headers: phones[0].headers, raw: nil).0 == .forbidden)
            #expect(try await client.call(.delete, APIRoutes.device(phones[1].deviceId), headers: phones[0].headers).0 == .forbidden)
            #expect(try await client.call(.delete, APIRoutes.device(phones[0].deviceId), headers: phones[0].headers).0 == .noContent)
        }
    }

    /// A new device takes the lowest id free, so ids stay small (Signal's multi-recipient format carries 1…127)
    /// however often devices are linked and removed.
    @Test func aLinkedDeviceTakesTheLowestFreeId() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            var passwords: [UInt32: String] = [:]
            func link() async throws -> UInt32 {
                let (request, password) = Self.linkRequest(code: try await Self.issueCode(client, for: bob))
                let (status, body) = try await client.call(.put, APIRoutes.linkDevice, json: request)
                #expect(status == .created)
                let deviceId = try JSONDecoder().decode(RegisterAccountResponse.self, from: body).deviceId
                passwords[deviceId] = password
                return deviceId
            }
            #expect(try await link() == 2)
            #expect(try await link() == 3)
            // A message waits for device 2; the device is removed, and its mailbox with it.
            let registration = try bob.store.localRegistrationId(context: NullContext())
            let send = SendMessagesRequest(
                messages: [1, 2, 3].map { MessageTests.message($0, registrationId: $0 == 1 ? registration : 77) },
                timestamp: 1)
            #expect(try await client.call(.put, APIRoutes.messages(to: bob.accountId), headers: alice.headers, json: send).0 == .ok)
            #expect(try await client.call(.delete, APIRoutes.device(2), headers: bob.headers).0 == .noContent)
            #expect(try await link() == 2)
            // The new device 2 starts with an empty mailbox: nothing meant for the removed one reaches it.
            let phone = Member(accountId: bob.accountId, deviceId: 2, password: passwords[2]!, store: InMemorySignalProtocolStore())
            let (_, mailbox) = try await client.call(.get, APIRoutes.mailbox, headers: phone.headers)
            #expect(try JSONDecoder().decode(EnvelopeListResponse.self, from: mailbox).messages.isEmpty)
            #expect(try await link() == 4)
            #expect(try await client.call(.delete, APIRoutes.device(3), headers: bob.headers).0 == .noContent)
            #expect(try await client.call(.delete, APIRoutes.device(4), headers: bob.headers).0 == .noContent)
            #expect(try await link() == 3)
        }
    }

    /// The idempotency keys a removed device used are not answered to the new device given its id.
    @Test func aNewDeviceWithARemovedOnesIdDoesNotInheritItsIdempotencyKeys() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let registration = try MessageTests.registrationId(of: alice)
            let send = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: registration)], timestamp: 7)
            for round in 0..<2 {
                let (request, password) = Self.linkRequest(code: try await Self.issueCode(client, for: bob))
                let (_, body) = try await client.call(.put, APIRoutes.linkDevice, json: request)
                #expect(try JSONDecoder().decode(RegisterAccountResponse.self, from: body).deviceId == 2)
                let laptop = Member(accountId: bob.accountId, deviceId: 2, password: password, store: InMemorySignalProtocolStore())
                let (status, _) = try await client.call(
                    .put, APIRoutes.messages(to: alice.accountId),
                    headers: IdempotentSendTests.headers(laptop, key: "same-key"), json: send)
                #expect(status == .ok)
                #expect(try await IdempotentSendTests.mailbox(alice, client).count == round + 1, "each device's send is stored")
                #expect(try await client.call(.delete, APIRoutes.device(2), headers: bob.headers).0 == .noContent)
            }
        }
    }

    @Test func accountsHoldAtMostSixDevices() async throws {
        try await ServerHarness().run { client in
            let bob = try await client.register("bob")
            for expected in 2...6 {
                let (request, _) = Self.linkRequest(code: try await Self.issueCode(client, for: bob))
                let (_, body) = try await client.call(.put, APIRoutes.linkDevice, json: request)
                #expect(try JSONDecoder().decode(RegisterAccountResponse.self, from: body).deviceId == UInt32(expected))
            }
            let (request, _) = Self.linkRequest(code: try await Self.issueCode(client, for: bob))
            let (status, body) = try await client.call(.put, APIRoutes.linkDevice, json: request)
            #expect(status == .conflict)
            #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "too_many_devices")
        }
    }

    @Test func expiredAndUnknownCodesAreRefused() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let bob = try await client.register("bob")
            try await harness.store.storeLinkCode(
                hash: Array(SHA256.hash(data: Data("old-code".utf8))), accountId: bob.accountId, expires: 1)
            for code in ["old-code", "never-issued"] {
                let (request, _) = Self.linkRequest(code: code)
                let (status, body) = try await client.call(.put, APIRoutes.linkDevice, json: request)
                #expect(status == .forbidden)
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "forbidden")
            }
            #expect(try await client.call(.post, APIRoutes.linkCode, raw: nil).0 == .unauthorized)
        }
    }

    @Test func provisioningMessagesAreLeftByThePrimaryAndTakenOnce() async throws {
        try await ServerHarness().run { client in
            let bob = try await client.register("bob")
            let address = String(repeating: "a", count: 43)
            let message = ProvisioningMessage(body: Data("sealed".utf8).base64EncodedString())
            // Nothing yet; the taker needs no credentials.
            #expect(try await client.call(.get, APIRoutes.provisioning(address)).0 == .notFound)
            #expect(try await client.call(.put, APIRoutes.provisioning(address), json: message).0 == .unauthorized)
            #expect(try await client.call(.put, APIRoutes.provisioning(address), headers: bob.headers, json: message).0 == .noContent)
            #expect(try await client.call(.put, APIRoutes.provisioning(address), headers: bob.headers, json: message).0 == .conflict)
            let (status, body) = try await client.call(.get, APIRoutes.provisioning(address))
            #expect(status == .ok)
            #expect(try JSONDecoder().decode(ProvisioningMessage.self, from: body) == message)
            #expect(try await client.call(.get, APIRoutes.provisioning(address)).0 == .notFound, "taken once")

            // Malformed addresses and bodies, an oversized body, a linked device: refused with JSON errors.
            for bad in ["short", String(repeating: "a", count: 65), "aaaaaaaaaaaaaaaaaaaaaa%21"] {
                #expect(try await client.call(.get, APIRoutes.provisioning(bad)).0 == .badRequest)
                #expect(try await client.call(.put, APIRoutes.provisioning(bad), headers: bob.headers, json: message).0 == .badRequest)
            }
            let other = String(repeating: "b", count: 43)
            for raw in [#"{"body":"***"}"#, #"{"body":""}"#, #"{"nobody":1}"#, "not json"] {
                #expect(try await client.call(.put, APIRoutes.provisioning(other), headers: bob.headers, raw: raw).0 == .badRequest)
            }
            let huge = ProvisioningMessage(body: Data(count: 16 * 1024 + 1).base64EncodedString())
            #expect(try await client.call(.put, APIRoutes.provisioning(other), headers: bob.headers, json: huge).0 == .contentTooLarge)
            let (request, password) = Self.linkRequest(code: try await Self.issueCode(client, for: bob))
            _ = try await client.call(.put, APIRoutes.linkDevice, json: request)
            let phone = Member(accountId: bob.accountId, deviceId: 2, password: password, store: InMemorySignalProtocolStore())
            #expect(try await client.call(.put, APIRoutes.provisioning(other), headers: phone.headers, json: message).0 == .forbidden)
        }
    }
}
