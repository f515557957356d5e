import Crypto
import Foundation
import ParleyAPI
import Testing

@testable import ParleyKit

@Suite struct AttachmentCipherTests {
    struct Vectors: Decodable {
        struct Case: Decodable {
            let plaintext_length: Int
            let plaintext_sha256: String
            let keys: String
            let iv: String
            let blob_length: Int
            let blob_sha256: String
            let blob_prefix: String
            let mac: String
        }
        let padded_sizes: [String: Int]
        let cases: [Case]
    }

    static let vectors: Vectors = {
        let url = Bundle.module.url(forResource: "attachment_kat", withExtension: "json", subdirectory: "Vectors")!
        return try! JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }()

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func plaintext(_ length: Int, case index: Int) -> [UInt8] { (0..<length).map { UInt8(($0 * 7 + index) % 256) } }

    @Test func paddingBucketsMatchTheReference() {
        for (size, padded) in Self.vectors.padded_sizes {
            #expect(AttachmentPadding.paddedSize(Int(size)!) == padded, "size \(size)")
        }
    }

    @Test func blobsMatchAnIndependentImplementationByteForByte() throws {
        for (index, vector) in Self.vectors.cases.enumerated() {
            let keys = try AttachmentKeys(combined: Self.hex(vector.keys))
            let plaintext = Self.plaintext(vector.plaintext_length, case: index)
            #expect(Self.hex(SHA256.hash(data: plaintext)) == vector.plaintext_sha256)
            var encryptor = AttachmentEncryptor(keys: keys, plaintextLength: plaintext.count, iv: Self.hex(vector.iv))
            // Odd chunk sizes exercise the hand-chained CBC.
            var blob: [UInt8] = []
            var offset = 0
            while offset < plaintext.count {
                let end = min(plaintext.count, offset + 1 + (offset % 37))
                blob += try encryptor.update(plaintext[offset..<end])
                offset = end
            }
            let (tail, digest) = try encryptor.finalize()
            blob += tail
            #expect(blob.count == vector.blob_length && blob.count == AttachmentEncryptor.blobSize(plaintextLength: plaintext.count))
            #expect(Self.hex(digest) == vector.blob_sha256 && Self.hex(SHA256.hash(data: blob)) == vector.blob_sha256)
            #expect(Self.hex(blob.prefix(64)) == vector.blob_prefix && Self.hex(blob.suffix(32)) == vector.mac)
            #expect(try AttachmentDecryptor.decrypt(blob, keys: keys, digest: digest, plaintextLength: plaintext.count) == plaintext)
        }
    }

    @Test func tamperingWrongKeysAndWrongDigestsAreRefused() throws {
        let keys = AttachmentKeys.generate()
        let plaintext = Array("a photo of a cat".utf8)
        var encryptor = AttachmentEncryptor(keys: keys, plaintextLength: plaintext.count)
        var blob = try encryptor.update(plaintext)
        let (tail, digest) = try encryptor.finalize()
        blob += tail
        var flipped = blob
        flipped[40] ^= 1
        #expect(throws: ParleyError.attachment(.digestMismatch)) {
            try AttachmentDecryptor.decrypt(flipped, keys: keys, digest: digest, plaintextLength: plaintext.count)
        }
        #expect(throws: ParleyError.attachment(.macMismatch)) {
            try AttachmentDecryptor.decrypt(
                flipped, keys: keys, digest: Array(SHA256.hash(data: flipped)), plaintextLength: plaintext.count)
        }
        #expect(throws: ParleyError.attachment(.macMismatch)) {
            try AttachmentDecryptor.decrypt(blob, keys: AttachmentKeys.generate(), digest: digest, plaintextLength: plaintext.count)
        }
        #expect(throws: ParleyError.attachment(.malformedBlob)) {
            try AttachmentDecryptor.decrypt(Array(blob.prefix(40)), keys: keys, digest: digest, plaintextLength: 1)
        }
        #expect(throws: ParleyError.attachment(.badPadding)) {
            try AttachmentDecryptor.decrypt(blob, keys: keys, digest: digest, plaintextLength: 10_000)
        }
        #expect(throws: ParleyError.attachment(.invalidKeyLength(63))) { try AttachmentKeys(combined: [UInt8](repeating: 0, count: 63)) }
    }

    @Test func largeFilesRoundTripThroughFilesInBoundedChunks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-attach-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("plain")
        let blob = directory.appendingPathComponent("blob")
        let restored = directory.appendingPathComponent("restored")
        // 8 MiB of varied bytes, written in pieces.
        #expect(FileManager.default.createFile(atPath: source.path, contents: nil))
        let writer = try FileHandle(forWritingTo: source)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<128 { try writer.write(contentsOf: (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        try writer.close()
        var reported = 0
        let result = try AttachmentFileEncryption.encrypt(source, to: blob, chunkSize: 100_000) { reported = $0 }
        #expect(reported == 8 * 1024 * 1024 && result.plaintextLength == reported)
        #expect(result.blobLength == AttachmentEncryptor.blobSize(plaintextLength: reported))
        let plaintextHash = try AttachmentDecryptor.decryptFile(
            at: blob, to: restored, keys: result.keys, digest: result.digest,
            plaintextLength: result.plaintextLength, chunkSize: 70_000)
        #expect(try Data(contentsOf: restored) == Data(contentsOf: source))
        #expect(ContentHashFormat.hex(plaintextHash) == (try ContentDetectionService.hash(ofFileAt: source)))
        #expect(throws: ParleyError.attachment(.digestMismatch)) {
            try AttachmentDecryptor.decryptFile(
                at: blob, to: restored, keys: result.keys, digest: [UInt8](repeating: 0, count: 32),
                plaintextLength: result.plaintextLength)
        }
    }
}
