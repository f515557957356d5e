import Foundation
import FuzzHarness
import ParleyProtocol

/// Usernames from the other side: a string a person or a link hands over, a proof and hash a server is asked to accept,
/// and a username link's bytes. The first byte picks which; a username either is refused with a ``SignalError`` or
/// parses, hashes to 32 bytes and proves its own hash; a proof and hash from the input never verify unless they are a
/// real pair (and must not crash); a link's bytes decrypt to a valid username or are refused.
enum UsernameTargets {
    static let values = FuzzTarget(
        run: { input in
            guard let selector = input.first else { return }
            let bytes = Data(input.dropFirst())
            switch selector % 3 {
            case 0:
                guard let text = String(bytes: bytes, encoding: .utf8), let username = try? Username(text) else { return }
                invariant(username.hash.count == 32 && username.value == text, "a username that parses keeps its text and hashes")
                invariant(Username.isHash(username.hash), "a username's hash is a point")
                let parts = text.split(separator: ".", omittingEmptySubsequences: false)
                if parts.count >= 2, let sameCase = try? Username(text.lowercased()) {
                    invariant(sameCase.hash == username.hash, "the hash is case-insensitive")
                }
                if bytes.count < 40 { try! Username.verify(proof: username.generateProof(), forHash: username.hash) }
            case 1:
                // A 32-byte hash, then a proof: fuzzed pairs never verify, except the one real pair.
                guard bytes.count >= 32 else { return }
                let hash = bytes.prefix(32)
                let proof = bytes.dropFirst(32)
                if (try? Username.verify(proof: Data(proof), forHash: Data(hash))) != nil {
                    invariant(Username.isHash(hash) && proof.count == 128, "only a point and a 128-byte proof verify")
                }
            default:
                if let username = try? Username(fromLink: bytes, withRandomness: UsernameFixtures.entropy) {
                    invariant(username.hash.count == 32, "a username from a link hashes")
                }
            }
        },
        seeds: {
            let fixed = UsernameFixtures.fixed
            let (_, link) = try! fixed.createLink(previousEntropy: UsernameFixtures.entropy)
            return [
                [0] + Array("Wanderer_27.2718".utf8), [0] + Array("bad.007".utf8), [0] + Array("x.99".utf8),
                [1] + Array(fixed.hash) + Array(fixed.generateProof()), [2] + Array(link),
            ]
        })
}

/// What the username target keeps for the whole run (suppressed by name in Fuzz/lsan.supp, as the other fixtures).
enum UsernameFixtures {
    /// Fixed link entropy (a crash replays exactly).
    static let entropy = Data(repeating: 5, count: 32)
    /// A username the seeds are made from.
    static let fixed = try! Username("fuzz_target.42")
}
