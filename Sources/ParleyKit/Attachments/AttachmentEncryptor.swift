import Crypto
import CryptoExtras
import Foundation

/// Streams one attachment into Signal's blob format: `IV (16) ‖ AES-256-CBC(plaintext ‖ zero padding to the
/// size bucket, PKCS#7) ‖ HMAC-SHA256(macKey, IV ‖ ciphertext) (32)`, with `digest = SHA-256(blob)`.
///
/// Memory stays bounded by the chunk sizes the caller feeds: CBC is chained by hand (each chunk encrypted
/// without padding, its last block the next IV), and the MAC and digest are computed incrementally.
public struct AttachmentEncryptor {
    private let key: SymmetricKey
    private var mac: HMAC<SHA256>
    private var digest = SHA256()
    private var chainIV: [UInt8]
    private var pending: [UInt8] = []
    private var fed = 0
    /// The plaintext size announced up front (the padding bucket depends on it).
    public let plaintextLength: Int
    private var started = false

    /// An encryptor for a plaintext of `plaintextLength` bytes; `iv` is random unless given (tests).
    public init(keys: AttachmentKeys, plaintextLength: Int, iv: [UInt8]? = nil) {
        key = SymmetricKey(data: keys.aesKey)
        mac = HMAC<SHA256>(key: SymmetricKey(data: keys.macKey))
        var generator = SystemRandomNumberGenerator()
        chainIV = iv ?? (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.plaintextLength = plaintextLength
    }

    /// The blob's total size for a plaintext of `plaintextLength` bytes.
    public static func blobSize(plaintextLength: Int) -> Int {
        16 + (AttachmentPadding.paddedSize(plaintextLength) / 16 + 1) * 16 + 32
    }

    /// Encrypts the next plaintext bytes; returns the blob bytes ready so far (the IV first).
    public mutating func update(_ plaintext: some Collection<UInt8>) throws -> [UInt8] {
        fed += plaintext.count
        var output: [UInt8] = []
        if !started {
            started = true
            output = chainIV
            mac.update(data: chainIV)
        }
        pending.append(contentsOf: plaintext)
        let whole = pending.count - pending.count % 16
        if whole > 0 {
            output += try encryptBlocks(Array(pending[0..<whole]), padded: false)
            pending.removeFirst(whole)
        }
        digest.update(data: output)
        return output
    }

    /// Adds the zero padding, the final block and the MAC; returns the last blob bytes and the blob's digest.
    public mutating func finalize() throws -> (tail: [UInt8], digest: [UInt8]) {
        guard fed == plaintextLength else { throw ParleyError.attachment(.badPadding) }
        var output = try update([UInt8]())
        var zeros = AttachmentPadding.paddedSize(plaintextLength) - plaintextLength
        while zeros > 0 {
            let chunk = min(zeros, 64 * 1024)
            zeros -= chunk
            let part = try update([UInt8](repeating: 0, count: chunk))
            output += part
        }
        let last = try encryptBlocks(pending, padded: true)
        pending = []
        let tag = Array(mac.finalize())
        let tail = last + tag
        digest.update(data: tail)
        output += tail
        return (output, Array(digest.finalize()))
    }

    private mutating func encryptBlocks(_ blocks: [UInt8], padded: Bool) throws -> [UInt8] {
        let ciphertext = Array(try AES._CBC.encrypt(blocks, using: key, iv: try AES._CBC.IV(ivBytes: chainIV), noPadding: !padded))
        if ciphertext.count >= 16 { chainIV = Array(ciphertext.suffix(16)) }
        mac.update(data: ciphertext)
        return ciphertext
    }
}
