import Foundation
import ParleyAPI
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// A sealed-sender envelope reaches the receive pipeline with no source: the sender is believed only from a
/// certificate that leads to the trust root the account learned at registration.
@Suite struct SealedSenderReceiveTests {
    /// A sender outside ParleyKit: its own identity, registered over the API, with a session to `recipient`.
    struct RawSender {
        let store = InMemorySignalProtocolStore()
        let credentials: DeviceCredentials
        let certificate: SenderCertificate

        init(api: ParleyServerClient, username: String, recipient: String) async throws {
            let context = NullContext()
            let password = Data((0..<24).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            let registered = try await api.register(
                RegisterAccountRequest(
                    username: username,
                    identityKey: try store.identityKeyPair(context: context).publicKey.serialize().base64EncodedString(),
                    registrationId: try store.localRegistrationId(context: context), password: password, deviceName: nil))
            credentials = DeviceCredentials(accountId: registered.accountId, deviceId: 1, password: password)
            let bundle = try await api.bundle(accountId: recipient, deviceId: 1, as: credentials)
            try processPreKeyBundle(
                try DeviceSessions.bundle(bundle, device: bundle.devices[0]),
                for: try ProtocolAddress(name: recipient, deviceId: 1), sessionStore: store, identityStore: store,
                context: context)
            certificate = try SenderCertificate(
                try #require(Data(base64Encoded: try await api.deliveryCertificate(as: credentials).certificate)))
        }

        func seal(_ text: String, to recipient: String, certificate: SenderCertificate? = nil) throws -> SendMessagesRequest {
            let plaintext = try MessageContent(dataMessage: DataMessage(body: text)).encode()
            let sealed = try sealedSenderEncrypt(
                message: plaintext, for: try ProtocolAddress(name: recipient, deviceId: 1), from: certificate ?? self.certificate,
                sessionStore: store, identityStore: store, context: NullContext())
            return SendMessagesRequest(
                messages: [
                    OutgoingMessage(
                        destinationDeviceId: 1, destinationRegistrationId: 0, type: OutgoingMessage.unidentifiedSenderType,
                        content: sealed.base64EncodedString())
                ], timestamp: UInt64(Date().timeIntervalSince1970 * 1000))
        }
    }

    @Test func aSealedMessageIsShownUnderTheCertifiedSenderAndAForgedOneUnderNoName() async throws {
        try await TestServer.run { server in
            let fern = try server.client("fern")
            let fernCredentials = try await fern.accounts.register(username: "fern")
            let gus = try await RawSender(api: fern.api, username: "gus", recipient: fernCredentials.accountId)
            let registrationId = try await fern.api.devices(as: fernCredentials).devices[0].registrationId
            func withRegistration(_ request: SendMessagesRequest) -> SendMessagesRequest {
                SendMessagesRequest(
                    messages: request.messages.map {
                        OutgoingMessage(
                            destinationDeviceId: 1, destinationRegistrationId: registrationId, type: $0.type, content: $0.content)
                    }, timestamp: request.timestamp)
            }

            _ = try await fern.api.send(
                withRegistration(try gus.seal("sealed hello", to: fernCredentials.accountId)),
                to: fernCredentials.accountId, as: gus.credentials)
            let envelope = try #require(try await fern.api.mailbox(as: fernCredentials).messages.first)
            #expect(envelope.sourceAccountId == nil, "the server stored no sender")
            guard case .stored(let messageId) = try await fern.receiver.process(envelope) else {
                Issue.record("the sealed message was not stored")
                return
            }
            try await fern.api.acknowledge(envelope.guid, as: fernCredentials)
            let conversation = try #require(try fern.conversations().first)
            let page = try fern.history(conversationId: conversation.conversationId)
            let message = try #require(page.messages.first { $0.id == messageId })
            #expect(message.body == "sealed hello" && message.authorAccountId == gus.credentials.accountId)

            // A certificate from another trust root: refused, shown under no name.
            let rogueRoot = PrivateKey.generate()
            let rogueServer = try ServerCertificate(keyId: 1, publicKey: PrivateKey.generate().publicKey, trustRoot: rogueRoot)
            let forged = try SenderCertificate(
                sender: try SealedSenderAddress(e164: nil, uuidString: gus.credentials.accountId, deviceId: 1),
                publicKey: try gus.store.identityKeyPair(context: NullContext()).publicKey,
                expiration: UInt64(Date().timeIntervalSince1970 * 1000) + 3_600_000, signerCertificate: rogueServer,
                signerKey: PrivateKey.generate())
            _ = try await fern.api.send(
                withRegistration(try gus.seal("forged", to: fernCredentials.accountId, certificate: forged)),
                to: fernCredentials.accountId, as: gus.credentials)
            let forgedEnvelope = try #require(try await fern.api.mailbox(as: fernCredentials).messages.first)
            guard case .undecryptable = try await fern.receiver.process(forgedEnvelope) else {
                Issue.record("a forged certificate was believed")
                return
            }
            let after = try fern.history(conversationId: conversation.conversationId)
            #expect(!after.messages.contains { $0.body == "forged" })
        }
    }
}
