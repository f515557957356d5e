import AsyncHTTPClient
import Crypto
import CryptoExtras
import Foundation
@_spi(Benchmarks) import ParleyKit

/// `parley-client-bench`: the client-side numbers of BENCHMARKS.md, in release mode on this machine.
/// - attachment encryption and decryption (file to file, streaming) against the machine's limit for the same work
///   (one-shot AES-256-CBC over the whole buffer plus two SHA-256 passes, in memory);
/// - SQLite through GRDB with and without the encrypting VFS: bulk inserts, and paging 50 messages from a large history;
/// - the client's own queries on its encrypted database: the inbox of 1,000 conversations and pages of 50 from a
///   1,000,000-message conversation, through `ParleyClient.conversations()` and `history(conversationId:before:limit:)`;
/// - `--only web-seed --home DIR`: an account for `Scripts/bench-web.py` to open in `parley web` (it measures the page).
@main
struct ClientBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        let megabytes = Int(value(after: "--attachment-mib", in: arguments) ?? "") ?? 64
        let messages = Int(value(after: "--messages", in: arguments) ?? "") ?? 1_000_000
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-client-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let only = value(after: "--only", in: arguments)
        if only == nil || only == "attachments" { try attachments(megabytes: megabytes, root: root) }
        if only == nil || only == "database" { try database(messages: messages, root: root) }
        if only == nil || only == "inbox" {
            try inbox(conversations: Int(value(after: "--conversations", in: arguments) ?? "") ?? 1000, messages: messages, root: root)
        }
        if only == "web-seed", let home = value(after: "--home", in: arguments) {
            try await webSeed(
                home: URL(fileURLWithPath: home), conversations: Int(value(after: "--conversations", in: arguments) ?? "") ?? 10_000,
                messages: messages)
        }
    }

    /// An account for `Scripts/bench-web.py` in `home/accounts/bench`, as `parley web --home home --account bench` opens it:
    /// registered (locally: no server knows it), `conversations` conversations of two messages each, and the most recent
    /// one holding `messages` messages.
    static func webSeed(home: URL, conversations: Int, messages: Int) async throws {
        let client = try ParleyClient.open(
            accountDirectory: home.appendingPathComponent("accounts").appendingPathComponent("bench"), server: "http://127.0.0.1:9")
        try client.seedAccount(username: "bench", accountId: UUID().uuidString.lowercased())
        let fill = try seconds {
            for conversation in 1...conversations {
                try client.seedConversation(
                    with: "account-\(conversation)", username: "user\(conversation)", messages: 2,
                    firstTimestamp: 1_700_000_000_000 + UInt64(conversation) * 1000
                ) { "message \($0) of conversation \(conversation), with some ordinary text" }
            }
            try client.seedConversation(
                with: "account-long", username: "long", messages: messages, firstTimestamp: 1_800_000_000_000
            ) { "message \($0) of the long conversation, with some ordinary text" }
        }
        await client.shutdown()
        print(String(format: "seeded %@: %d conversations and one of %d messages in %.1f s", home.path, conversations, messages, fill))
    }

    /// The inbox and history queries ParleyClient runs, on a client database holding `conversations` conversations
    /// (ten messages each) and one more with `messages` messages.
    static func inbox(conversations: Int, messages: Int, root: URL) throws {
        let database = try ParleyDatabase(
            path: root.appendingPathComponent("client.sqlite").path,
            key: try DatabaseKey(bytes: [UInt8](repeating: 7, count: 32)))
        let client = ParleyClient(
            database: database, api: ParleyServerClient(baseURL: "http://127.0.0.1:9", http: HTTPClient.shared),
            attachmentDirectory: root.appendingPathComponent("attachments"))
        var big: Int64 = 0
        let fill = try seconds {
            for conversation in 1...conversations {
                try client.seedConversation(
                    with: "account-\(conversation)", username: "user\(conversation)", messages: 10,
                    firstTimestamp: UInt64(conversation * 100)
                ) {
                    "message \($0) of conversation \(conversation), with some ordinary text"
                }
            }
            let last = conversations + 1
            big = try client.seedConversation(
                with: "account-\(last)", username: "user\(last)", messages: messages, firstTimestamp: 1_000_000
            ) {
                "message \($0) of conversation \(last), with some ordinary text"
            }
        }
        let rounds = 500
        var listed = 0
        let inboxTime = try seconds { for _ in 0..<rounds { listed = try client.conversations().count } }
        let newest = try client.history(conversationId: big, limit: 50)
        let pages = 2000
        let highest = newest.messages.first?.id ?? Int64(messages)
        let pageTime = try seconds {
            for round in 0..<pages {
                let cursor = highest - Int64((round * 7919) % max(messages - 100, 1))
                _ = try client.history(conversationId: big, before: cursor, limit: 50)
            }
        }
        print(String(format: "client database (%d conversations, one of %d messages; filled in %.1f s):", listed, messages, fill))
        print(
            String(
                format: "  inbox of %d conversations via conversations(): %.0f µs; page of 50 via history(before:): %.0f µs",
                listed, inboxTime / Double(rounds) * 1e6, pageTime / Double(pages) * 1e6))
    }

    static func value(after flag: String, in arguments: [String]) -> String? {
        arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func attachments(megabytes: Int, root: URL) throws {
        let size = megabytes * 1024 * 1024
        var generator = SystemRandomNumberGenerator()
        let plaintext = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let source = root.appendingPathComponent("plain")
        let blob = root.appendingPathComponent("blob")
        let restored = root.appendingPathComponent("restored")
        try plaintext.write(to: source)
        var result: AttachmentFileEncryption.Result?
        let encrypt = try seconds { result = try AttachmentFileEncryption.encrypt(source, to: blob) }
        let decrypt = try seconds {
            try AttachmentDecryptor.decryptFile(
                at: blob, to: restored, keys: result!.keys, digest: result!.digest,
                plaintextLength: result!.plaintextLength)
        }
        // The machine's limit for the same work: AES-256-CBC over the whole buffer and two SHA-256 passes (the MAC
        // and the digest), one-shot in memory, no files.
        let key = SymmetricKey(size: .bits256)
        let iv = try AES._CBC.IV(ivBytes: [UInt8](repeating: 7, count: 16))
        let limit = try seconds {
            let ciphertext = try AES._CBC.encrypt(plaintext, using: key, iv: iv)
            _ = HMAC<SHA256>.authenticationCode(for: ciphertext, using: key)
            _ = SHA256.hash(data: ciphertext)
        }
        let mib = Double(megabytes)
        print(
            String(
                format:
                    "attachment %d MiB: encrypt %.0f MiB/s, decrypt (verify + decrypt) %.0f MiB/s; limit (in-memory AES-CBC + 2×SHA-256) %.0f MiB/s",
                megabytes, mib / encrypt, mib / decrypt, mib / limit))
        print(String(format: "  ratios: encrypt %.2f× of the limit, decrypt %.2f×", limit / encrypt, limit / decrypt))
    }

    static func database(messages: Int, root: URL) throws {
        let result = try StorageBenchmark.run(messages: messages, in: root)
        let plainFill = result.plainFill
        let encryptedFill = result.encryptedFill
        let plainPage = result.plainPage
        let encryptedPage = result.encryptedPage
        print(
            String(
                format: "database, %d messages: insert plain %.0f rows/s, encrypted %.0f rows/s (%.2f× the time)",
                messages, Double(messages) / plainFill, Double(messages) / encryptedFill, encryptedFill / plainFill))
        print(
            String(
                format: "  page of 50 from a %d-message history (cold cursor per round): plain %.0f µs, encrypted %.0f µs (%.2f×)",
                messages, plainPage, encryptedPage, encryptedPage / plainPage))
    }
}
