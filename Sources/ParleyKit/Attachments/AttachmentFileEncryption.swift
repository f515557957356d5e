import Foundation

/// File-to-file encryption of an attachment in bounded memory.
public enum AttachmentFileEncryption {
    /// What the message pointing at the encrypted file must carry.
    public struct Result: Sendable, Equatable {
        /// The 64-byte key.
        public let keys: AttachmentKeys
        /// SHA-256 of the blob.
        public let digest: [UInt8]
        /// The plaintext's size (the blob is padded).
        public let plaintextLength: Int
        /// The blob's size.
        public let blobLength: Int
    }

    /// Encrypts `source` into `destination` with fresh keys, `chunkSize` bytes at a time; `progress` receives the
    /// plaintext bytes done.
    public static func encrypt(
        _ source: URL, to destination: URL, chunkSize: Int = 64 * 1024,
        progress: (Int) -> Void = { _ in }
    ) throws -> Result {
        let length = try AttachmentDecryptor.fileSize(source)
        let keys = AttachmentKeys.generate()
        var encryptor = AttachmentEncryptor(keys: keys, plaintextLength: length)
        let input = try AttachmentDecryptor.handle(reading: source)
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw ParleyError.attachment(.io("cannot create \(destination.path)"))
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var done = 0
        var written = 0
        while done < length {
            let chunk = try AttachmentDecryptor.read(input, min(chunkSize, length - done))
            done += chunk.count
            let bytes = try encryptor.update(chunk)
            try output.write(contentsOf: bytes)
            written += bytes.count
            progress(done)
        }
        let (tail, digest) = try encryptor.finalize()
        try output.write(contentsOf: tail)
        written += tail.count
        return Result(keys: keys, digest: digest, plaintextLength: length, blobLength: written)
    }
}
