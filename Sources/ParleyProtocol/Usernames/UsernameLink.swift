import Foundation

/// A username link's encryption: the username in a ``Parley_Username_UsernameData`` padded to 48 bytes, AES-256-CBC
/// under a key derived from 32 bytes of entropy, then HMAC-SHA256 over IV and ciphertext — `IV ‖ ciphertext ‖ MAC`, the
/// server's copy of a link, which it cannot read without the entropy the link itself carries. As libsignal's
/// `username_links`, byte for byte.
enum UsernameLink {
    /// The entropy's size (the link's secret half).
    static let entropySize = 32

    /// The encrypted username for `username` under `entropy` (fresh entropy when `nil`), and the entropy.
    /// - Throws: ``SignalError/usernameLinkInvalidEntropyDataLength(_:)`` for entropy other than 32 bytes,
    ///   ``SignalError/nicknameTooLong(_:)`` for a username too long to fit four AES blocks.
    static func encrypt(_ username: String, entropy: [UInt8]?) throws -> (entropy: [UInt8], encryptedUsername: [UInt8]) {
        if let entropy, entropy.count != entropySize {
            throw SignalError.usernameLinkInvalidEntropyDataLength("a username link's entropy is \(entropySize) bytes")
        }
        var data = Parley_Username_UsernameData()
        data.username = username
        data.padding = Data(count: max(0, 48 - username.utf8.count))
        let plaintext: [UInt8] = ProtobufCoding.encode(data)
        guard plaintext.count < 64 else {
            throw SignalError.nicknameTooLong("the username is too long for a username link")
        }
        let entropy = entropy ?? SecureRandom.bytes(entropySize)
        let iv = SecureRandom.bytes(16)
        let keys = keys(entropy)
        let sealed = iv + (try MessageCipher.encrypt(plaintext, key: keys.encryption, iv: iv))
        return (entropy, sealed + KDF.hmacSHA256(key: keys.authentication, sealed))
    }

    /// The username `encryptedUsername` holds under `entropy`.
    /// - Throws: ``SignalError/usernameLinkInvalidEntropyDataLength(_:)`` for entropy other than 32 bytes;
    ///   ``SignalError/usernameLinkInvalid(_:)`` for data too short, a MAC that does not match, or a plaintext that
    ///   does not decrypt or parse.
    static func decrypt(_ encryptedUsername: [UInt8], entropy: [UInt8]) throws -> String {
        guard entropy.count == entropySize else {
            throw SignalError.usernameLinkInvalidEntropyDataLength("a username link's entropy is \(entropySize) bytes")
        }
        guard encryptedUsername.count > 16 + 32 else {
            throw SignalError.usernameLinkInvalid("the username link's data is too short")
        }
        guard encryptedUsername.count <= 4096 else {
            throw SignalError.usernameLinkInvalid("the username link's data is \(encryptedUsername.count) bytes, too long")
        }
        let keys = keys(entropy)
        let sealed = Array(encryptedUsername.dropLast(32))
        guard ConstantTime.equals(KDF.hmacSHA256(key: keys.authentication, sealed), encryptedUsername.suffix(32)) else {
            throw SignalError.usernameLinkInvalid("the username link's MAC does not match its entropy")
        }
        let plaintext: Data
        do {
            plaintext = try MessageCipher.decrypt(Array(sealed.dropFirst(16)), key: keys.encryption, iv: Array(sealed.prefix(16)))
        } catch {
            throw SignalError.usernameLinkInvalid("the username link's data does not decrypt")
        }
        do {
            let data: Parley_Username_UsernameData = try ProtobufCoding.decode(Array(plaintext), what: "username link data")
            return data.username
        } catch {
            throw SignalError.usernameLinkInvalid("the username link's data does not parse")
        }
    }

    /// The AES and HMAC keys `entropy` derives (HKDF-SHA256, no salt).
    private static func keys(_ entropy: [UInt8]) -> (encryption: [UInt8], authentication: [UInt8]) {
        (
            KDF.hkdf(inputKeyMaterial: entropy, info: "Signal Username Link Encryption Key", count: 32),
            KDF.hkdf(inputKeyMaterial: entropy, info: "Signal Username Link Authentication Key", count: 32)
        )
    }
}
