import Foundation
import ParleyAPI
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Typing in a group, through a real in-process server: each other member's devices hear it in that group (not in the
/// 1:1 chat), sealed where it may be; and an indicator naming a group is taken only from a member of a group the
/// receiver is in.
@Suite(.serialized) struct GroupTypingTests {
    /// `sender`'s typing indicator for `groupId`, encrypted for `recipientId`'s first device as a client would: as an
    /// ephemeral event naming the sender, and as a stored envelope (how typing should not come, but may). One
    /// ciphertext in both: process only one of them.
    static func indicator(from sender: ParleyClient, to recipientId: String, in groupId: Data) async throws -> (
        event: EphemeralEvent, envelope: Envelope
    ) {
        let credentials = try sender.credentials()
        let copies = try await sender.delivery.ephemeralCopies(
            MessageContent(typing: .started, typingGroupId: groupId),
            to: recipientId, as: credentials)
        let copy = try #require(copies.first)
        let event = EphemeralEvent(
            destinationAccountId: recipientId, sourceAccountId: credentials.accountId, sourceDeviceId: credentials.deviceId,
            kind: EphemeralKind.typing, content: try JSONEncoder().encode([copy]).base64EncodedString(), timestamp: 1)
        let envelope = Envelope(
            guid: UUID().uuidString, sourceAccountId: credentials.accountId, sourceDeviceId: credentials.deviceId,
            type: copy.type, content: copy.content, timestamp: 1_000, serverTimestamp: 1_000)
        return (event, envelope)
    }

    static func refusedForMembership(_ outcome: ReceiveOutcome) -> Bool {
        if case .rejected(let reason) = outcome { return reason.contains("group the sender is not in") }
        return false
    }

    @Test func membersHearTypingInTheGroupAndNoOneElseCanFakeIt() async throws {
        try await TestServer.run { server in
            let p = try await ConversationFeatureTests.people(server)
            // Carol writes to Alice first: Alice learns her profile key, so Alice's indicators to Carol go sealed
            // (Bob's, whose key she does not know, go on the socket).
            try p.carol.sender.enqueue(body: "hi", to: p.aliceId)
            _ = try await p.carol.runJobs()
            _ = try await p.alice.receiveOnce()
            let groupId = try p.alice.sender.createGroup(title: "Typists", members: [p.bobId, p.carolId])
            _ = try await p.alice.runJobs()
            for client in [p.bobPhone, p.bobLaptop, p.carol] { _ = try await client.receiveOnce() }
            let aliceCredentials = try p.alice.credentials()
            #expect(try await p.alice.delivery.unidentified.access(to: p.carolId, as: aliceCredentials) != nil)
            #expect(try await p.alice.delivery.unidentified.access(to: p.bobId, as: aliceCredentials) == nil)

            let carolListening = Task { try await p.carol.listen() }
            let bobListening = Task { try await p.bobPhone.listen() }
            defer {
                carolListening.cancel()
                bobListening.cancel()
            }
            try await ConversationFeatureTests.eventually {
                try await p.alice.sendTyping(.started, toGroup: groupId).sorted() == [p.bobId, p.carolId].sorted()
                    && p.carol.typingIndicators.isTyping(p.aliceId, in: groupId)
                    && p.bobPhone.typingIndicators.isTyping(p.aliceId, in: groupId)
            }
            // In the group only: the 1:1 chat with Alice shows nothing.
            #expect(!p.carol.typingIndicators.isTyping(p.aliceId))
            #expect(p.carol.typingIndicators.typing(in: groupId) == [p.aliceId] && p.carol.typingIndicators.typing().isEmpty)
            try await p.alice.sendTyping(.stopped, toGroup: groupId)
            try await ConversationFeatureTests.eventually {
                !p.carol.typingIndicators.isTyping(p.aliceId, in: groupId) && !p.bobPhone.typingIndicators.isTyping(p.aliceId, in: groupId)
            }
            carolListening.cancel()
            bobListening.cancel()
            _ = await carolListening.result
            _ = await bobListening.result

            // Carol names a group of Alice's she is not in, or one Alice does not know: Alice's client decrypts the
            // indicator and refuses it, as an ephemeral event and as a stored envelope alike.
            let other = try p.alice.sender.createGroup(title: "Without Carol", members: [p.bobId])
            _ = try await p.alice.runJobs()
            for group in [other, Data(repeating: 7, count: 16)] {
                let event = try await p.alice.receiver.process(try await Self.indicator(from: p.carol, to: p.aliceId, in: group).event)
                #expect(Self.refusedForMembership(event), "\(event)")
                let stored = try await p.alice.receiver.process(try await Self.indicator(from: p.carol, to: p.aliceId, in: group).envelope)
                #expect(Self.refusedForMembership(stored), "\(stored)")
            }
            // A member's own indicator, made the same way, is taken: the refusals above are about membership.
            let member = try await p.alice.receiver.process(try await Self.indicator(from: p.carol, to: p.aliceId, in: groupId).event)
            #expect(member == .typing(accountId: p.carolId, deviceId: 1, action: .started, groupId: groupId))

            // Once Carol is removed, her typing in the group is refused, and her client no longer sends any there…
            try p.alice.sender.removeMembers([p.carolId], from: groupId)
            _ = try await p.alice.runJobs()
            _ = try await p.carol.receiveOnce()
            let removed = try await p.alice.receiver.process(try await Self.indicator(from: p.carol, to: p.aliceId, in: groupId).event)
            #expect(Self.refusedForMembership(removed), "\(removed)")
            await #expect {
                try await p.carol.sendTyping(.started, toGroup: groupId)
            } throws: { error in
                guard case ParleyError.invalidArgument(let reason) = error else { return false }
                return reason.contains("no longer a member")
            }
            // …nor does she take one for a group she left (still a member in the indicator's sender's eyes).
            let afterLeaving = try await p.carol.receiver.process(try await Self.indicator(from: p.alice, to: p.carolId, in: groupId).event)
            #expect(Self.refusedForMembership(afterLeaving), "\(afterLeaving)")
        }
    }

    /// Ended indicators do not pile up: once more than 1,024 are held, the next one recorded drops the ended ones.
    @Test func endedIndicatorsAreDroppedOnceMany() {
        let clock = TestClock()
        let indicators = TypingIndicators(now: clock.source)
        for index in 0..<1_025 { indicators.record(.started, from: "typist-\(index)", in: Data(repeating: 1, count: 16)) }
        #expect(indicators.heldCount == 1_025)
        clock.advance(by: TypingIndicators.lifetime + 1)
        indicators.record(.started, from: "late", in: nil)
        #expect(indicators.heldCount == 1)
        #expect(indicators.isTyping("late") && indicators.typing() == ["late"])
    }
}
