import Crypto
import CryptoExtras
import Foundation

/// Checks and decrypts attachment blobs (see ``AttachmentEncryptor`` for the format). Nothing is decrypted
/// before the blob's digest and MAC have both been verified.
public enum AttachmentDecryptor {
    /// Decrypts a blob held in memory.
    public static func decrypt(_ blob: [UInt8], keys: AttachmentKeys, digest: [UInt8], plaintextLength: Int) throws -> [UInt8] {
        guard blob.count >= 16 + 16 + 32, (blob.count - 48) % 16 == 0 else { throw ParleyError.attachment(.malformedBlob) }
        guard ConstantTimeBytes.equal(Array(SHA256.hash(data: blob)), digest) else { throw ParleyError.attachment(.digestMismatch) }
        let body = blob[0..<(blob.count - 32)]
        let expected = Array(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: keys.macKey)))
        guard ConstantTimeBytes.equal(expected, Array(blob.suffix(32))) else { throw ParleyError.attachment(.macMismatch) }
        let plaintext: Data
        do {
            plaintext = try AES._CBC.decrypt(
                blob[16..<(blob.count - 32)], using: SymmetricKey(data: keys.aesKey),
                iv: try AES._CBC.IV(ivBytes: blob[0..<16]))
        } catch {
            throw ParleyError.attachment(.badPadding)
        }
        guard plaintextLength >= 0, plaintextLength <= plaintext.count else { throw ParleyError.attachment(.badPadding) }
        return Array(plaintext.prefix(plaintextLength))
    }

    /// Decrypts the blob in file `source` into `destination`, streaming in `chunkSize` pieces: one pass checks the
    /// digest and MAC, a second decrypts. The destination is written only after both checks pass.
    ///
    /// - Returns: SHA-256 of the plaintext written (what duplicate content detection looks up), computed in the
    ///   decrypting pass so the plaintext is not read again.
    @discardableResult
    public static func decryptFile(
        at source: URL, to destination: URL, keys: AttachmentKeys, digest: [UInt8],
        plaintextLength: Int, chunkSize: Int = 64 * 1024
    ) throws -> [UInt8] {
        let size = try fileSize(source)
        guard size >= 64, (size - 48) % 16 == 0 else { throw ParleyError.attachment(.malformedBlob) }
        guard plaintextLength >= 0, plaintextLength <= size - 48 else { throw ParleyError.attachment(.badPadding) }
        let input = try handle(reading: source)
        defer { try? input.close() }

        // Pass 1: digest of everything, MAC of everything but the tag.
        var hash = SHA256()
        var mac = HMAC<SHA256>(key: SymmetricKey(data: keys.macKey))
        var offset = 0
        let macStart = size - 32
        while offset < size {
            let chunk = try read(input, Swift.min(chunkSize, size - offset))
            hash.update(data: chunk)
            let macPart = chunk.prefix(Swift.max(0, Swift.min(chunk.count, macStart - offset)))
            mac.update(data: macPart)
            offset += chunk.count
        }
        guard ConstantTimeBytes.equal(Array(hash.finalize()), digest) else { throw ParleyError.attachment(.digestMismatch) }
        try input.seek(toOffset: UInt64(macStart))
        let tag = try read(input, 32)
        guard ConstantTimeBytes.equal(Array(mac.finalize()), tag) else { throw ParleyError.attachment(.macMismatch) }

        // Pass 2: decrypt, chaining CBC by hand; only the last block carries PKCS#7.
        try input.seek(toOffset: 0)
        var iv = try read(input, 16)
        let key = SymmetricKey(data: keys.aesKey)
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw ParleyError.attachment(.io("cannot create \(destination.path)"))
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var remainingCiphertext = size - 48
        var remainingPlaintext = plaintextLength
        var plaintextHash = SHA256()
        let step = Swift.max(16, chunkSize - chunkSize % 16)
        do {
            while remainingCiphertext > 0 {
                let count = Swift.min(step, remainingCiphertext)
                let ciphertext = try read(input, count)
                remainingCiphertext -= count
                let isLast = remainingCiphertext == 0
                var plaintext = Array(try AES._CBC.decrypt(ciphertext, using: key, iv: try AES._CBC.IV(ivBytes: iv), noPadding: !isLast))
                iv = Array(ciphertext.suffix(16))
                if plaintext.count > remainingPlaintext { plaintext.removeLast(plaintext.count - remainingPlaintext) }
                remainingPlaintext -= plaintext.count
                plaintextHash.update(data: plaintext)
                try output.write(contentsOf: plaintext)
            }
        } catch ParleyError.attachment(let reason) {
            throw ParleyError.attachment(reason)
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw ParleyError.attachment(.badPadding)
        }
        guard remainingPlaintext == 0 else {
            try? FileManager.default.removeItem(at: destination)
            throw ParleyError.attachment(.badPadding)
        }
        return Array(plaintextHash.finalize())
    }

    static func fileSize(_ url: URL) throws -> Int {
        do {
            return (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw ParleyError.attachment(.io("cannot read \(url.path)"))
        }
    }

    static func handle(reading url: URL) throws -> FileHandle {
        do { return try FileHandle(forReadingFrom: url) } catch { throw ParleyError.attachment(.io("cannot open \(url.path)")) }
    }

    static func read(_ handle: FileHandle, _ count: Int) throws -> [UInt8] {
        guard let data = try handle.read(upToCount: count), data.count == count else {
            throw ParleyError.attachment(.io("the file ended early"))
        }
        return [UInt8](data)
    }
}
