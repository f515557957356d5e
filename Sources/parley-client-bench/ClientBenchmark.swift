import Crypto
import CryptoExtras
import Foundation
import GRDB
import ParleyKit

/// `parley-client-bench`: the client-side numbers of BENCHMARKS.md, in release mode on this machine.
/// - attachment encryption and decryption (file to file, streaming) against the machine's limit for the same work
///   (one-shot AES-256-CBC over the whole buffer plus two SHA-256 passes, in memory);
/// - SQLite through GRDB with and without the encrypting VFS: bulk inserts, and paging 50 messages from a large history.
@main
struct ClientBenchmark {
    static func main() async throws {
        let arguments = CommandLine.arguments
        let megabytes = Int(value(after: "--attachment-mib", in: arguments) ?? "") ?? 64
        let messages = Int(value(after: "--messages", in: arguments) ?? "") ?? 1_000_000
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-client-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try attachments(megabytes: megabytes, root: root)
        try database(messages: messages, root: root)
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
        let source = root.appendingPathComponent("plain"), blob = root.appendingPathComponent("blob"), restored = root.appendingPathComponent("restored")
        try plaintext.write(to: source)
        var result: AttachmentFileEncryption.Result?
        let encrypt = try seconds { result = try AttachmentFileEncryption.encrypt(source, to: blob) }
        let decrypt = try seconds {
            try AttachmentDecryptor.decryptFile(at: blob, to: restored, keys: result!.keys, digest: result!.digest,
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
        print(String(format: "attachment %d MiB: encrypt %.0f MiB/s, decrypt (verify + decrypt) %.0f MiB/s; limit (in-memory AES-CBC + 2×SHA-256) %.0f MiB/s",
                     megabytes, mib / encrypt, mib / decrypt, mib / limit))
        print(String(format: "  ratios: encrypt %.2f× of the limit, decrypt %.2f×", limit / encrypt, limit / decrypt))
    }

    static func database(messages: Int, root: URL) throws {
        let plainPath = root.appendingPathComponent("plain.sqlite").path
        let plain = try DatabasePool(path: plainPath)
        let encrypted = try ParleyDatabase(path: root.appendingPathComponent("encrypted.sqlite").path,
                                           key: try DatabaseKey(bytes: [UInt8](repeating: 9, count: 32)))
        let schema = """
            CREATE TABLE IF NOT EXISTS bench_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id INTEGER NOT NULL,
                body TEXT NOT NULL, timestamp INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS bench_by_thread ON bench_messages (thread_id, id);
            """
        try plain.write { try $0.execute(sql: schema) }
        try encrypted.write { try $0.execute(sql: schema) }
        func fill(_ writer: some DatabaseWriter) throws -> Double {
            try seconds {
                var written = 0
                while written < messages {
                    let batch = min(10_000, messages - written)
                    try writer.write { db in
                        let statement = try db.cachedStatement(sql: "INSERT INTO bench_messages (thread_id, body, timestamp) VALUES (?, ?, ?)")
                        for index in written..<(written + batch) {
                            try statement.execute(arguments: [index % 100, "message number \(index) with some ordinary text in it", index])
                        }
                    }
                    written += batch
                }
            }
        }
        func page(_ reader: some DatabaseReader) throws -> Double {
            let rounds = 2000
            let elapsed = try seconds {
                for round in 0..<rounds {
                    let thread = round % 100
                    let cursor = Int64(messages - (round * 97) % max(messages / 2, 1))
                    _ = try reader.read { db in
                        try Row.fetchAll(db, sql: "SELECT * FROM bench_messages WHERE thread_id = ? AND id < ? ORDER BY id DESC LIMIT 50",
                                         arguments: [thread, cursor])
                    }
                }
            }
            return elapsed / Double(rounds) * 1e6
        }
        let plainFill = try fill(plain), encryptedFill = try fill(encrypted.pool)
        let plainPage = try page(plain), encryptedPage = try page(encrypted.pool)
        print(String(format: "database, %d messages: insert plain %.0f rows/s, encrypted %.0f rows/s (%.2f× the time)",
                     messages, Double(messages) / plainFill, Double(messages) / encryptedFill, encryptedFill / plainFill))
        print(String(format: "  page of 50 from a %d-message history (cold cursor per round): plain %.0f µs, encrypted %.0f µs (%.2f×)",
                     messages, plainPage, encryptedPage, encryptedPage / plainPage))
    }
}
