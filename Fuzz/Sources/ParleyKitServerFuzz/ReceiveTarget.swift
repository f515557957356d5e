import Foundation
import FuzzHarness
import GRDB
import ParleyAPI

@testable import ParleyKit

/// The receive pipeline after decryption: a sequence of decrypted contents from fuzzer-chosen senders (this account's
/// own devices, two peers), each applied by `MessageReceiver.apply` exactly as a received message is — data messages,
/// quotes, reactions, edits, deletes, group changes, transcripts, receipts and sender keys — to one database, inside a
/// transaction rolled back after every input. The `content` target checks that contents parse; this one checks what
/// a peer can make the client do with contents that parse: nothing traps, every stored message exists with no act
/// still waiting for it, the acts it released and reports are peers' acts on it, and the database stays consistent
/// (no dangling reference, no negative unread count).
enum ReceiveTarget {
    /// This account, a peer and another peer (short ids, so the fuzzer can name them inside contents).
    static let accounts = ["a", "b", "c"]

    private static let database: ParleyDatabase = {
        let path = FuzzFiles.directory.appendingPathComponent("receive.sqlite").path
        return try! ParleyDatabase(path: path, key: try! DatabaseKey(bytes: [UInt8](repeating: 5, count: 32)))
    }()
    private static let store = DatabaseProtocolStore(now: { 1_000_000 })

    private struct RollBack: Error {}

    static let target = FuzzTarget(
        run: { input in
            var reader = ByteReader(input)
            do {
                try database.write { db -> Void in
                    var steps = 0
                    while !reader.isExhausted && steps < 16 {
                        steps += 1
                        // [sender, timestamp hi, lo, server delay, length, content…]: sender bits 0–1 pick the account, 2 seals,
                        // 3–4 pick the device (1…4).
                        let who = reader.byte()
                        let account = accounts[Int(who & 3) % accounts.count]
                        let device = UInt32((who >> 3) & 3) + 1
                        let timestamp = UInt64(reader.byte()) << 8 | UInt64(reader.byte())
                        let serverTimestamp = timestamp + UInt64(reader.byte())
                        let bytes = (0..<Int(reader.byte())).map { _ in reader.byte() }
                        guard let content = try? MessageContent.decode(bytes + [0x80]) else { continue }
                        let envelope = Envelope(
                            guid: "fuzz", sourceAccountId: account, sourceDeviceId: device, type: 1, content: "",
                            timestamp: timestamp, serverTimestamp: serverTimestamp)
                        let source = EnvelopeSource(accountId: account, deviceId: device, type: 1, ciphertext: Data(), sealed: who & 4 != 0)
                        var released = ConversationActions.ReleasedActs()
                        let outcome = try MessageReceiver.apply(
                            content, from: source, in: envelope, localAccountId: accounts[0], localDeviceId: 1,
                            store: store, db, now: serverTimestamp, released: &released)
                        guard case .stored(let id) = outcome else {
                            // Only a message stored releases the acts that waited for it.
                            invariant(released.reported.isEmpty && !released.deletedMessage, "acts released by \(outcome)")
                            continue
                        }
                        let stored = try Row.fetchOne(
                            db, sql: "SELECT author_account_id, timestamp, kind FROM messages WHERE id = ?", arguments: [id])
                        invariant(stored != nil, "a stored message exists")
                        guard let stored else { continue }
                        let (author, time, kind): (String, Int64, String) = (
                            stored["author_account_id"], stored["timestamp"], stored["kind"]
                        )
                        // (A group change's notice is no message an act can concern: what names its time waits out its day.)
                        let waiting =
                            try Int.fetchOne(
                                db, sql: "SELECT count(*) FROM early_acts WHERE target_author = ? AND target_timestamp = ?",
                                arguments: [author, time]) ?? 0
                        invariant(waiting == 0 || kind == MessageKind.groupChange.rawValue, "no act still waits for a message stored")
                        // What is reported: a peer's act on this very message (this account's own are not reported).
                        for act in released.reported {
                            invariant(act.authorAccountId != accounts[0], "this account's own act reported")
                            switch act.kind {
                            case .reaction(_, _, let targetAuthor, let targetTimestamp):
                                invariant(
                                    targetAuthor == author && Int64(targetTimestamp) == time, "a released reaction on another message")
                            case .edit(let targetTimestamp, _, _), .deleteForEveryone(let targetTimestamp):
                                invariant(
                                    act.authorAccountId == author && Int64(targetTimestamp) == time,
                                    "a released edit or delete of another message")
                            case .receipt:
                                invariant(false, "a receipt released")
                            }
                        }
                    }
                    let dangling = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
                    invariant(dangling.isEmpty, "no row refers to one that is gone: \(dangling)")
                    let negative = try Int.fetchOne(db, sql: "SELECT count(*) FROM threads WHERE unread_count < 0") ?? 0
                    invariant(negative == 0, "no negative unread count")
                    throw RollBack()
                }
            } catch is RollBack {
            } catch {
                // Applying throws only when the database fails; content that breaks a rule is refused or recorded.
                invariant(false, "applying received content threw \(error)")
            }
        },
        seeds: {
            func step(_ account: Int, at timestamp: UInt16, _ content: MessageContent) -> [UInt8] {
                guard var bytes = try? content.encode() else { return [] }
                // The padding goes: the harness adds the terminator itself.
                while bytes.last == 0 { bytes.removeLast() }
                bytes.removeLast()
                guard bytes.count < 256 else { return [] }
                return [UInt8(account), UInt8(timestamp >> 8), UInt8(timestamp & 0xFF), 5, UInt8(bytes.count)] + bytes
            }
            let group = Data(repeating: 7, count: GroupContext.idLength)
            let conversation =
                step(1, at: 100, MessageContent(dataMessage: DataMessage(body: "hi")))
                + step(
                    0, at: 110,
                    MessageContent(
                        sentTranscript: SentTranscript(
                            destinationAccountId: "b",
                            message: DataMessage(
                                body: "re", quote: Quote(authorAccountId: "b", timestamp: 100)))))
                + step(
                    1, at: 120,
                    MessageContent(
                        dataMessage: DataMessage(
                            body: nil,
                            reaction: Reaction(
                                emoji: "👍", targetAuthorAccountId: "a",
                                targetTimestamp: 110))))
                + step(1, at: 130, MessageContent(dataMessage: DataMessage(body: "hi!", editTarget: 100)))
                + step(1, at: 140, MessageContent(receipt: Receipt(kind: "read", timestamps: [110])))
                + step(1, at: 150, MessageContent(dataMessage: DataMessage(body: nil, deleteTarget: 100)))
            let groups =
                step(
                    1, at: 200,
                    MessageContent(
                        dataMessage: DataMessage(
                            body: nil,
                            group: GroupContext(
                                id: group, revision: 1, state: GroupState(title: "g", members: ["a", "b", "c"])))))
                + step(
                    2, at: 210, MessageContent(dataMessage: DataMessage(body: "in the group", group: GroupContext(id: group, revision: 1))))
                + step(
                    1, at: 220,
                    MessageContent(
                        dataMessage: DataMessage(
                            body: nil,
                            group: GroupContext(
                                id: group, revision: 2, state: GroupState(title: "g2", members: ["a", "b"])))))
                + step(2, at: 230, MessageContent(dataMessage: DataMessage(body: "removed?", group: GroupContext(id: group, revision: 1))))
                + step(1, at: 240, MessageContent(dataMessage: DataMessage(body: "timer", expireTimer: 60, isTimerUpdate: true)))
            return [conversation, groups]
        })
}
