/// Authenticates the KEM exchange of each SPQR epoch: a root and a MAC key, updated with the session's
/// authentication key at epoch 1 and with each epoch's secret after; MACs over the encapsulation-key header and
/// over the ciphertext, checked in constant time.
struct SPQRAuthenticator: Sendable, Equatable {
    var root: [UInt8]
    var macKey: [UInt8]

    /// The authenticator of a new session: zero keys updated with `authKey` (PQXDH's bytes 64…96) for epoch 1.
    init(authKey: [UInt8]) {
        root = [UInt8](repeating: 0, count: 32)
        macKey = [UInt8](repeating: 0, count: 32)
        update(epoch: 1, key: authKey)
    }

    /// An authenticator with these keys (a stored state).
    init(root: [UInt8], macKey: [UInt8]) {
        self.root = root
        self.macKey = macKey
    }

    /// Mixes `key` (an epoch's secret) in for `epoch`.
    mutating func update(epoch: UInt64, key: [UInt8]) {
        let okm = SPQRKDF.hkdf(
            root + key, info: Array("Signal_PQCKA_V1_MLKEM768:Authenticator Update".utf8) + SPQRKDF.bigEndian(epoch),
            count: 64)
        root = Array(okm[0..<32])
        macKey = Array(okm[32..<64])
    }

    /// The MAC of an encapsulation key's header in `epoch`.
    func headerMAC(epoch: UInt64, header: [UInt8]) -> [UInt8] {
        KDF.hmacSHA256(key: macKey, Array("Signal_PQCKA_V1_MLKEM768:ekheader".utf8) + SPQRKDF.bigEndian(epoch) + header)
    }

    /// The MAC of a ciphertext (both parts) in `epoch`.
    func ciphertextMAC(epoch: UInt64, ciphertext1: [UInt8], ciphertext2: [UInt8]) -> [UInt8] {
        KDF.hmacSHA256(
            key: macKey, Array("Signal_PQCKA_V1_MLKEM768:ciphertext".utf8) + SPQRKDF.bigEndian(epoch) + ciphertext1 + ciphertext2)
    }

    /// Whether `mac` is the header MAC (constant time).
    func verifyHeader(epoch: UInt64, header: [UInt8], mac: [UInt8]) -> Bool {
        ConstantTime.equals(headerMAC(epoch: epoch, header: header), mac)
    }

    /// Whether `mac` is the ciphertext MAC (constant time).
    func verifyCiphertext(epoch: UInt64, ciphertext1: [UInt8], ciphertext2: [UInt8], mac: [UInt8]) -> Bool {
        ConstantTime.equals(ciphertextMAC(epoch: epoch, ciphertext1: ciphertext1, ciphertext2: ciphertext2), mac)
    }
}
