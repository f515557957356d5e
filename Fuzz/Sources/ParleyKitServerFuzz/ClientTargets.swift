import Crypto
import Foundation
import FuzzHarness
import ParleyProtocol

@testable import ParleyKit

/// What a Parley client parses from strangers after the protocol layer: the decrypted `Content` (every message body,
/// attachment pointer, quote, reaction, group change, receipt and transcript), attachment blobs from the server, and
/// provisioning envelopes and link codes from whoever is at the provisioning address.
enum ClientTargets {
    /// `Content` bytes: decoding refuses malformed input with an error; what decodes encodes and decodes to the same value.
    static let content = FuzzTarget(
        run: { input in
            guard let content = try? MessageContent.decode(input), let encoded = try? content.encode() else { return }
            invariant((try? MessageContent.decode(encoded)) == content, "a decoded Content encodes and decodes to itself")
        },
        seeds: {
            let pointer = AttachmentPointer(
                id: "0c6a1b7e-13e1-4b51-9d2c-5b3b1f3d9e10", key: Data(repeating: 1, count: 64).base64EncodedString(),
                digest: Data(repeating: 2, count: 32).base64EncodedString(), size: 1234,
                contentType: "image/jpeg", fileName: "holiday.jpg")
            let messages = [
                MessageContent(dataMessage: DataMessage(body: "Hi Bob!")),
                MessageContent(
                    dataMessage: DataMessage(
                        body: "a photo", attachments: [pointer], quote: Quote(authorAccountId: "alice", timestamp: 7),
                        expireTimer: 60)),
                MessageContent(
                    dataMessage: DataMessage(
                        body: nil,
                        reaction: Reaction(
                            emoji: "👍", remove: false, targetAuthorAccountId: "bob",
                            targetTimestamp: 9))),
                MessageContent(
                    dataMessage: DataMessage(
                        body: nil,
                        group: GroupContext(
                            id: Data(repeating: 3, count: 32), revision: 2,
                            state: GroupState(title: "Trip", members: ["a", "b"])))),
                MessageContent(receipt: Receipt(kind: "read", timestamps: [1, 2, 3])),
                MessageContent(sentTranscript: SentTranscript(destinationAccountId: "bob", message: DataMessage(body: "sent elsewhere"))),
                MessageContent(typing: .started),
            ]
            return messages.compactMap { try? $0.encode() }
        })

    /// An attachment blob as downloaded. The input chooses the keys, the plaintext length and the IV and ciphertext; the
    /// harness seals them as a sender would (MAC and digest over whatever was chosen), so the fuzzer reaches the
    /// decryption and the padding and length checks, not only the MAC check. A blob with a wrong digest or MAC is refused.
    static let attachment = FuzzTarget(
        run: { input in
            guard input.count >= 66, let keys = try? AttachmentKeys(combined: Array(input[0..<64])) else { return }
            let plaintextLength = Int(input[64]) << 8 | Int(input[65])
            let body = Array(input[66...])
            let blob = body + Array(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: keys.macKey)))
            let digest = Array(SHA256.hash(data: blob))
            if let plaintext = try? AttachmentDecryptor.decrypt(blob, keys: keys, digest: digest, plaintextLength: plaintextLength) {
                invariant(plaintext.count == plaintextLength, "a decrypted attachment has the length its pointer gives")
            }
            var wrongDigest = digest
            wrongDigest[0] ^= 1
            invariant(
                (try? AttachmentDecryptor.decrypt(blob, keys: keys, digest: wrongDigest, plaintextLength: plaintextLength)) == nil,
                "a blob whose digest differs is refused")
            if !body.isEmpty {
                var forged = blob
                forged[0] ^= 1
                let forgedDigest = Array(SHA256.hash(data: forged))
                invariant(
                    (try? AttachmentDecryptor.decrypt(forged, keys: keys, digest: forgedDigest, plaintextLength: plaintextLength)) == nil,
                    "a blob whose MAC does not match is refused")
            }
        },
        seeds: {
            [0, 1, 15, 16, 100, 700].compactMap { length -> [UInt8]? in
                let combined = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ length) }
                guard let keys = try? AttachmentKeys(combined: combined) else { return nil }
                var encryptor = AttachmentEncryptor(keys: keys, plaintextLength: length)
                guard var blob = try? encryptor.update((0..<length).map { UInt8(truncatingIfNeeded: $0) }),
                    let sealed = try? encryptor.finalize()
                else { return nil }
                blob += sealed.tail
                // The blob without its MAC: the harness computes the MAC itself.
                return combined + [UInt8(length >> 8), UInt8(length & 0xff)] + Array(blob.dropLast(32))
            }
        })

    /// The same blobs decrypted as downloaded files are: streamed, in chunks of a fuzzer-chosen size (byte 66 × 16, plus
    /// one byte so chunk edges fall mid-block too). Whatever the chunking, the file decryptor accepts exactly what the
    /// in-memory decryptor accepts and writes the same plaintext; what it refuses leaves no file behind.
    static let attachmentFile = FuzzTarget(
        run: { input in
            guard input.count >= 67, let keys = try? AttachmentKeys(combined: Array(input[0..<64])) else { return }
            let plaintextLength = Int(input[64]) << 8 | Int(input[65])
            let chunkSize = Int(input[66]) * 16 + (input[66] & 1 == 0 ? 16 : 1)
            let body = Array(input[67...])
            let blob = body + Array(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: keys.macKey)))
            let digest = Array(SHA256.hash(data: blob))
            let inMemory = try? AttachmentDecryptor.decrypt(blob, keys: keys, digest: digest, plaintextLength: plaintextLength)
            let source = FuzzFiles.directory.appendingPathComponent("blob")
            let destination = FuzzFiles.directory.appendingPathComponent("plain")
            try? FileManager.default.removeItem(at: destination)
            guard FileManager.default.createFile(atPath: source.path, contents: Data(blob)) else {
                fatalError("cannot write \(source.path)")
            }
            let hash = try? AttachmentDecryptor.decryptFile(
                at: source, to: destination, keys: keys, digest: digest,
                plaintextLength: plaintextLength, chunkSize: chunkSize)
            // Read through a handle: Foundation's whole-file read keeps its buffer where LeakSanitizer reports it as leaked.
            let handle = try? FileHandle(forReadingFrom: destination)
            let written = handle.map { handle in [UInt8]((try? handle.readToEnd()) ?? Data()) }
            try? handle?.close()
            invariant(
                (hash != nil) == (inMemory != nil), "the file decryptor accepts what the in-memory one accepts (chunks of \(chunkSize))")
            if let inMemory {
                invariant(written == inMemory, "the file decryptor writes the in-memory decryptor's plaintext")
                invariant(hash == Array(SHA256.hash(data: inMemory)), "the file decryptor returns the plaintext's hash")
            }
        },
        seeds: {
            attachment.seeds().map { seed in Array(seed[0..<66]) + [3] + Array(seed[66...]) }
        })

    /// The new device's key a provisioning envelope is encrypted to. Fixed, so the envelopes a corpus keeps from one run
    /// still open in the next (a key made per process would fail every kept envelope's MAC check).
    static let provisioningKey: IdentityKeyPair = {
        let privateKey = try! PrivateKey(Array(repeating: UInt8(0x2A), count: 32))
        return IdentityKeyPair(publicKey: privateKey.publicKey, privateKey: privateKey)
    }()

    /// A provisioning envelope from the provisioning address, and a link code typed or scanned by the user.
    static let provisioning = FuzzTarget(
        run: { input in
            if let plaintext = try? ProvisioningCipher.decrypt(input, with: provisioningKey.privateKey) {
                _ = try? JSONDecoder().decode(DeviceProvisioning.self, from: Data(plaintext))
            }
            _ = try? LinkInvitation(code: String(decoding: input, as: UTF8.self))
        },
        seeds: {
            let message = Data(#"{"accountId":"a","username":"alice","identityKeyPair":"AAAA","linkCode":"code"}"#.utf8)
            return [
                (try? ProvisioningCipher.encrypt(Array(message), to: provisioningKey.publicKey)) ?? [],
                Array(LinkInvitation.create().code.utf8),
            ]
        })
}
