import Foundation
import Testing

@testable import ParleyKit

/// The content format inside ciphertexts: round trips, padding, and malformed input refused with typed errors.
@Suite struct MessageContentTests {
    static let pointer = AttachmentPointer(
        id: "abc", key: Data(repeating: 1, count: 64).base64EncodedString(), digest: Data(repeating: 2, count: 32).base64EncodedString(),
        size: 1234, contentType: "image/png", fileName: "cat.png")

    @Test func everyPartRoundTripsAndIsPaddedToBlocks() throws {
        let message = DataMessage(body: "héllo", attachments: [Self.pointer], quote: Quote(authorAccountId: "a", timestamp: 7))
        for content in [
            MessageContent(dataMessage: message),
            MessageContent(dataMessage: DataMessage(body: nil, attachments: [Self.pointer])),
            MessageContent(sentTranscript: SentTranscript(destinationAccountId: "b", message: message)),
            MessageContent(receipt: Receipt(kind: "read", timestamps: [1, 2, 3])),
            MessageContent(receipt: Receipt(kind: "delivered", timestamps: [9])),
            MessageContent(
                dataMessage: DataMessage(body: nil, reaction: Reaction(emoji: "👍🏽", targetAuthorAccountId: "a", targetTimestamp: 5))),
            MessageContent(
                dataMessage: DataMessage(
                    body: nil,
                    reaction: Reaction(
                        emoji: "", remove: true, targetAuthorAccountId: "a",
                        targetTimestamp: 5))),
            MessageContent(dataMessage: DataMessage(body: "fixed", editTarget: 11, expireTimer: 30)),
            MessageContent(dataMessage: DataMessage(body: nil, deleteTarget: 12)),
            MessageContent(dataMessage: DataMessage(body: nil, expireTimer: 3600, isTimerUpdate: true)),
            MessageContent(typing: .started),
            MessageContent(typing: .stopped),
            MessageContent(typing: .started, typingGroupId: Data(repeating: 9, count: GroupContext.idLength)),
            MessageContent(dataMessage: DataMessage(body: nil, attachments: [Self.voiceNote])),
            // UTF-16 offsets: "👋" is two units, so the second placeholder is at 12.
            MessageContent(
                dataMessage: DataMessage(
                    body: "hi \u{FFFC} and 👋 \u{FFFC}",
                    mentions: [
                        Mention(accountId: Self.bob, start: 3, length: 1), Mention(accountId: Self.carol, start: 12, length: 1),
                    ])),
        ] {
            let bytes = try content.encode()
            #expect(bytes.count % 160 == 0)
            #expect(try MessageContent.decode(bytes) == content)
        }
    }

    static let bob = "0f3f8a4e-1c2d-4b5a-9e8f-7a6b5c4d3e2f", carol = "c0ffee00-1234-4abc-8def-0123456789ab"

    /// Mentions count UTF-16 code units, as Signal does: checked on send; on receipt a range that does not fit the text
    /// or names no account is dropped, the message kept.
    @Test func mentionsAreUTF16RangesNamingAccounts() throws {
        // "👋a": "a" is at 2 in UTF-16 (at 1 in characters, at 4 in UTF-8).
        try Mention.validate([Mention(accountId: Self.bob, start: 2, length: 1)], in: "👋a")
        for (mention, body) in [
            (Mention(accountId: Self.bob, start: 2, length: 2), "👋a"),  // past the end
            (Mention(accountId: Self.bob, start: 0, length: 0), "hi"),  // empty
            (Mention(accountId: Self.bob, start: -1, length: 1), "hi"),
            (Mention(accountId: Self.bob, start: 0, length: 1), ""),
            (Mention(accountId: "bob", start: 0, length: 1), "hi"),  // not an account id
            (Mention(accountId: Self.bob.uppercased(), start: 0, length: 1), "hi"),
        ] {
            #expect(throws: ParleyError.self, "\(mention) in \(body)") { try Mention.validate([mention], in: body) }
        }
        // Received: the bad ranges (as a sender that counts characters or bytes would make them) are dropped.
        var wire = Parley_Content_DataMessage()
        wire.body = "👋 @bob"
        for (start, length, account) in [
            (3, 4, Self.bob), (2, 4, Self.carol), (3, 9, Self.bob), (0, 1, "+15550001"), (UInt32.max, 2, Self.bob),
        ] as [(UInt32, UInt32, String)] {
            var range = Parley_Content_BodyRange()
            range.start = start
            range.length = length
            range.mentionAccountID = account
            wire.bodyRanges.append(range)
        }
        let received = try DataMessage(wire)
        #expect(received.body == "👋 @bob")
        #expect(
            received.mentions == [Mention(accountId: Self.bob, start: 3, length: 4), Mention(accountId: Self.carol, start: 2, length: 4)])
    }

    static let voiceNote = AttachmentPointer(
        id: "v", key: Data(repeating: 1, count: 64).base64EncodedString(), digest: Data(repeating: 2, count: 32).base64EncodedString(),
        size: 99, contentType: "audio/wav", fileName: nil, durationMilliseconds: 1500, waveform: [0, 0.25, 0.5, 1], voiceNote: true)

    @Test func malformedContentIsRefusedWithAReason() throws {
        func refused(_ bytes: [UInt8]) -> Bool {
            do {
                _ = try MessageContent.decode(bytes)
                return false
            } catch ParleyError.malformedContent {
                return true
            } catch {
                return false
            }
        }
        var good = try MessageContent(receipt: Receipt(kind: "read", timestamps: [1])).encode()
        #expect(refused([]) && refused([0, 0, 0]) && refused([1, 2, 3]))
        #expect(refused([0xff, 0xff, 0xff, 0x80] + [UInt8](repeating: 0, count: 156)), "not a protobuf")
        #expect(refused([0x08, 0x02, 0x80]), "version 2 is from the future")
        #expect(refused([0x08, 0x01, 0x80]), "no part set")
        good[good.count - 1] = 1  // terminator gone
        #expect(refused(good))
        var shortKey = Self.pointer
        shortKey.key = Data(repeating: 1, count: 16).base64EncodedString()
        #expect(refused(try MessageContent(dataMessage: DataMessage(body: nil, attachments: [shortKey])).encode()))
        // A typing indicator's group id is a group id's 16 bytes.
        #expect(refused(try MessageContent(typing: .started, typingGroupId: Data(repeating: 9, count: 15)).encode()))
        let many = DataMessage(body: nil, attachments: Array(repeating: Self.pointer, count: 101))
        #expect(refused(try MessageContent(dataMessage: many).encode()))
        // Message kinds: bounded waveforms, one emoji, no body on a reaction or delete, one act per message.
        var loud = Self.voiceNote
        loud.waveform = [1.5]
        var long = Self.voiceNote
        long.waveform = Array(repeating: 0.5, count: 101)
        for bad in [
            DataMessage(body: nil, attachments: [loud]),
            DataMessage(body: nil, attachments: [long]),
            DataMessage(body: nil, reaction: Reaction(emoji: "👍👍", targetAuthorAccountId: "a", targetTimestamp: 1)),
            DataMessage(body: nil, reaction: Reaction(emoji: "👍", targetAuthorAccountId: "", targetTimestamp: 1)),
            DataMessage(body: "text", reaction: Reaction(emoji: "👍", targetAuthorAccountId: "a", targetTimestamp: 1)),
            DataMessage(body: "text", deleteTarget: 3),
            DataMessage(body: "x", deleteTarget: 3, editTarget: 3),
            DataMessage(body: nil, expireTimer: DataMessage.maximumExpireTimer + 1, isTimerUpdate: true),
            DataMessage(body: String(repeating: "a", count: DataMessage.maximumBodyBytes + 1)),
            // At most 100 mentions.
            DataMessage(
                body: "hi",
                mentions: Array(repeating: Mention(accountId: Self.bob, start: 0, length: 1), count: Mention.maximumPerMessage + 1)),
        ] {
            #expect(refused(try MessageContent(dataMessage: bad).encode()), "\(bad)")
        }
    }
}
