import Foundation
@testable import ParleyKit
import Testing

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
            MessageContent(dataMessage: DataMessage(body: nil, reaction: Reaction(emoji: "👍🏽", targetAuthorAccountId: "a", targetTimestamp: 5))),
            MessageContent(dataMessage: DataMessage(body: nil, reaction: Reaction(emoji: "", remove: true, targetAuthorAccountId: "a",
                                                                                  targetTimestamp: 5))),
            MessageContent(dataMessage: DataMessage(body: "fixed", editTarget: 11, expireTimer: 30)),
            MessageContent(dataMessage: DataMessage(body: nil, deleteTarget: 12)),
            MessageContent(dataMessage: DataMessage(body: nil, expireTimer: 3600, isTimerUpdate: true)),
            MessageContent(typing: .started),
            MessageContent(typing: .stopped),
            MessageContent(dataMessage: DataMessage(body: nil, attachments: [Self.voiceNote])),
            MessageContent(dataMessage: DataMessage(body: "hi \u{FFFC} and 👋 \u{FFFC}", mentions: [
                Mention(accountId: "b", start: 3, length: 1), Mention(accountId: "c", start: 11, length: 1),
            ])),
        ] {
            let bytes = try content.encode()
            #expect(bytes.count % 160 == 0)
            #expect(try MessageContent.decode(bytes) == content)
        }
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
            // Mentions: inside the text (UTF-16 units: "👋" is two), not empty, naming an account, at most 100.
            DataMessage(body: "👋", mentions: [Mention(accountId: "b", start: 1, length: 2)]),
            DataMessage(body: "hi", mentions: [Mention(accountId: "b", start: 0, length: 0)]),
            DataMessage(body: "hi", mentions: [Mention(accountId: "", start: 0, length: 1)]),
            DataMessage(body: nil, mentions: [Mention(accountId: "b", start: 0, length: 1)]),
            DataMessage(body: "hi", mentions: Array(repeating: Mention(accountId: "b", start: 0, length: 1), count: Mention.maximumPerMessage + 1)),
        ] {
            #expect(refused(try MessageContent(dataMessage: bad).encode()), "\(bad)")
        }
    }
}
