import CParleyCrypto

/// The one place that calls the C shim: XEdDSA signing and the Edwards conversion, SHAKE256,
/// HMAC/HKDF-SHA256 and iterated SHA-512.
/// Nothing else in Parley touches pointers into native code.
enum NativeCrypto {
    static let initialized: Bool = parley_crypto_init() == 0

    /// XEdDSA signature of `message` by an X25519 private key, with nonce `random` (64 bytes).
    static func xeddsaSign(privateKey: [UInt8], message: [UInt8], random: [UInt8]) throws -> [UInt8] {
        precondition(privateKey.count == 32 && random.count == 64, "caller passes fixed-size buffers")
        guard initialized else { throw SignalError.internalError("libsodium failed to initialise") }
        var signature = [UInt8](repeating: 0, count: 64)
        let rc = signature.withUnsafeMutableBufferPointer { sig in
            privateKey.withUnsafeBufferPointer { key in
                message.withUnsafeBufferPointer { msg in
                    random.withUnsafeBufferPointer { rnd in
                        parley_xeddsa_sign(sig.baseAddress, key.baseAddress, msg.baseAddress, msg.count, rnd.baseAddress)
                    }
                }
            }
        }
        guard rc == 0 else { throw SignalError.internalError("XEdDSA signing failed") }
        return signature
    }

    /// Whether `signature` is a valid XEdDSA signature of `message` by the key whose Edwards y is `edwardsY`.
    static func xeddsaVerify(signature: [UInt8], edwardsY: [UInt8], message: [UInt8]) -> Bool {
        guard initialized, signature.count == 64, edwardsY.count == 32 else { return false }
        let rc = signature.withUnsafeBufferPointer { sig in
            edwardsY.withUnsafeBufferPointer { key in
                message.withUnsafeBufferPointer { msg in
                    parley_xeddsa_verify(sig.baseAddress, key.baseAddress, msg.baseAddress, msg.count)
                }
            }
        }
        return rc == 0
    }

    /// The Edwards y-coordinate of a 32-byte Montgomery u (public data), or `nil` for u ≥ p or u = p − 1.
    static func edwardsY(montgomeryU: [UInt8]) -> [UInt8]? {
        guard montgomeryU.count == 32 else { return nil }
        var y = [UInt8](repeating: 0, count: 32)
        let rc = y.withUnsafeMutableBufferPointer { out in
            montgomeryU.withUnsafeBufferPointer { parley_montgomery_to_edwards(out.baseAddress, $0.baseAddress) }
        }
        return rc == 0 ? y : nil
    }

    /// SHAKE256 of `input`, `count` bytes long.
    static func shake256(_ input: [UInt8], count: Int) throws -> [UInt8] {
        try shake(parley_shake256, "SHAKE256", input, count: count)
    }

    /// SHAKE128 of `input`, `count` bytes long.
    static func shake128(_ input: [UInt8], count: Int) throws -> [UInt8] {
        try shake(parley_shake128, "SHAKE128", input, count: count)
    }

    private static func shake(
        _ function: (UnsafeMutablePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> Int32, _ name: String,
        _ input: [UInt8], count: Int
    ) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        let rc = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { inp in function(out.baseAddress, out.count, inp.baseAddress, inp.count) }
        }
        guard rc == 0 else { throw SignalError.internalError("\(name) failed") }
        return output
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        let rc = output.withUnsafeMutableBufferPointer { out in
            key.withUnsafeBufferPointer { k in
                message.withUnsafeBufferPointer { m in parley_hmac_sha256(out.baseAddress, k.baseAddress, k.count, m.baseAddress, m.count) }
            }
        }
        precondition(rc == 0, "HMAC-SHA256 cannot fail on valid buffers")
        return output
    }

    /// HKDF-SHA256 (RFC 5869); an empty `salt` means 32 zero bytes. `count` is at most 8160.
    static func hkdfSHA256(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        precondition(count <= 255 * 32, "HKDF-SHA256 output is at most 8160 bytes")
        var output = [UInt8](repeating: 0, count: count)
        let rc = output.withUnsafeMutableBufferPointer { out in
            salt.withUnsafeBufferPointer { s in
                inputKeyMaterial.withUnsafeBufferPointer { ikm in
                    info.withUnsafeBufferPointer { i in
                        parley_hkdf_sha256(
                            out.baseAddress, out.count, s.baseAddress, s.count, ikm.baseAddress, ikm.count, i.baseAddress, i.count)
                    }
                }
            }
        }
        precondition(rc == 0, "HKDF-SHA256 cannot fail within its output bound")
        return output
    }

    /// `h = SHA-512(initial ‖ suffix)`, then `iterations − 1` times `h = SHA-512(h ‖ suffix)`.
    static func sha512Iterated(initial: [UInt8], suffix: [UInt8], iterations: UInt32) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 64)
        let rc = output.withUnsafeMutableBufferPointer { out in
            initial.withUnsafeBufferPointer { i in
                suffix.withUnsafeBufferPointer { s in
                    parley_sha512_iterate(out.baseAddress, i.baseAddress, i.count, s.baseAddress, s.count, iterations)
                }
            }
        }
        precondition(rc == 0, "iterated SHA-512 needs at least one iteration")
        return output
    }
}
