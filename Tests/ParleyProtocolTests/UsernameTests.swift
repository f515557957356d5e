import Foundation
import Testing

@testable import ParleyProtocol

/// Usernames: the hash, the proof, candidates, validation errors and username links, ported from libsignal v0.101's
/// `UsernameTests.swift` and the Rust `usernames` crate's tests (the hash of `he110.42`, the constant points, the
/// nickname scalar of `_z9_`, every validation case), plus what an attacker might hand a verifier.
@Suite struct UsernameTests {
    static func hex(_ text: String) -> [UInt8] { [UInt8](hex: text) }

    @Test func theHashOfHe110_42IsLibsignals() throws {
        let username = try Username("he110.42")
        #expect(Array(username.hash) == Self.hex("f63f0521eb3adfe1d936f4b626b89558483507fbdb838fc554af059111cf322e"))
        // Case-insensitive: the same hash, the spelling kept.
        let loud = try Username("HE110.42")
        #expect(loud.hash == username.hash && loud.value == "HE110.42")
    }

    @Test func theConstantPointsAreTheShoOnesLibsignalShips() {
        // rust/usernames/src/constants.rs, COMPRESSED_BASE_POINTS_RAW.
        let shipped = [
            "60b993663a3daecc4c852f533547e305388c2a50a58393ea277de4abf3de543a",
            "f2b6f1c826fa3640206f3b58b2286bdefdfda6a54ff902f204a72de737d26157",
            "0606bd3abfce4e9617d448fb2caeb6cc028ec9a2b62b10b3d9eb2948da6f3f53",
        ]
        #expect(UsernameHashing.basePoints.map(\.bytes) == shipped.map(Self.hex))
    }

    @Test func theNicknameScalarIsBase37AfterABase27FirstCharacter() throws {
        // 1 + 27·27 + 37·27·37 + 1·27·37² = 74656 for "_z9_".
        #expect(UsernameHashing.nicknameScalar(try UsernameParts.nicknameCodes("_z9_")) == UsernameHashing.scalar(74656))
    }

    @Test func theBasicFlowProvesAndRefusesAnotherHash() throws {
        let candidates = try Username.candidates(from: "hel10")
        let username = candidates[0]
        #expect(username.hash.count == 32)
        let proof = username.generateProof()
        #expect(proof.count == 128)
        try Username.verify(proof: proof, forHash: username.hash)
        var shuffled = username.hash
        shuffled.reverse()
        #expect(throws: SignalError.self) { try Username.verify(proof: proof, forHash: shuffled) }
        // Proofs do not transfer: sneaky.99's proof for He110.101's hash.
        let other = try Username("He110.101")
        #expect(throws: SignalError.self) { try Username.verify(proof: try Username("sneaky.99").generateProof(), forHash: other.hash) }
    }

    @Test func proofsAreDeterministicInTheirRandomnessAndHostileProofsAreRefused() throws {
        let username = try Username("hello_signal.42")
        let randomness = Randomness(
            (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32))
        let proof = username.generateProof(withRandomness: randomness)
        #expect(proof == username.generateProof(withRandomness: randomness))
        #expect(proof != username.generateProof())
        try Username.verify(proof: proof, forHash: username.hash)
        for hostile in [Data(), proof.dropLast(), proof + [0], Data(repeating: 0xff, count: 128), Data(repeating: 0, count: 128)] {
            #expect(throws: SignalError.self) { try Username.verify(proof: hostile, forHash: username.hash) }
        }
        for hash in [Data(), Data(repeating: 0xff, count: 32), username.hash.dropLast()] {
            #expect(throws: SignalError.self) { try Username.verify(proof: proof, forHash: hash) }
        }
        // Every bit of the proof matters.
        for index in stride(from: 0, to: proof.count, by: 13) {
            var flipped = proof
            flipped[index] ^= 0x01
            #expect(throws: SignalError.self) { try Username.verify(proof: flipped, forHash: username.hash) }
        }
    }

    @Test func validUsernamesParseKeepTheirSpellingAndProve() throws {
        for value in ["He110.01", "usr.999999999", "_identifier.42", "LOUD.700", "jimio.\(UInt64.max)"] {
            let username = try Username(value)
            #expect(username.value == value && username.description == value)
            try Username.verify(proof: username.generateProof(), forHash: username.hash)
        }
        let jimio = try Username(nickname: "jimio", discriminator: "01", withValidLengthWithin: 3...32)
        #expect(jimio.value == "jimio.01")
        #expect(jimio.hash == (try Username("jimio.01")).hash)
    }

    @Test func candidatesCoverTheRangesAndRefuseBadNicknames() throws {
        let candidates = try Username.candidates(from: "SiGNAl")
        #expect(candidates.count == 20)
        let discriminators = candidates.map { UInt64($0.value.split(separator: ".").last!)! }
        let digits = discriminators.map { String($0).count }
        #expect(digits.filter { $0 <= 2 }.count == 4 && digits.filter { $0 == 3 }.count == 3 && digits.filter { $0 == 9 }.count == 2)
        #expect(candidates.allSatisfy { $0.value.hasPrefix("SiGNAl.") })
        #expect(throws: SignalError.self) { try Username.candidates(from: "hi", withValidLengthWithin: 3...10) }
        #expect(throws: SignalError.self) { try Username.candidates(from: "a_very_long_nickname", withValidLengthWithin: 3...10) }
        for nickname in ["hi", "way_too_long_to_be_a_reasonable_nickname", "I⍰Unicode", "s p a c e s", "0zerostart"] {
            #expect(throws: SignalError.self) { try Username.candidates(from: nickname) }
        }
    }

    @Test func eachBrokenRuleHasLibsignalsError() {
        let nicknames: [(String, SignalError)] = [
            ("", .nicknameCannotBeEmpty("")), ("ab🦀d", .badNicknameCharacter("")), ("s p a c e s", .badNicknameCharacter("")),
            ("0start", .nicknameCannotStartWithDigit("")),
            ("nickname_too_big7890123456789012345678901234567890", .nicknameTooLong("")),
            ("I⍰Unicode", .badNicknameCharacter("")),
        ]
        for (nickname, expected) in nicknames {
            #expect(
                Self.error { try Username(nickname: nickname, discriminator: "42", withValidLengthWithin: 3...32) } == Self.kind(expected),
                "\(nickname)")
            #expect(Self.error { try Username("\(nickname).42") } != nil)
        }
        let discriminators: [(String, SignalError)] = [
            ("", .usernameDiscriminatorCannotBeEmpty("")), ("0", .usernameDiscriminatorCannotBeZero("")),
            ("00", .usernameDiscriminatorCannotBeZero("")), ("001", .usernameDiscriminatorCannotHaveLeadingZeros("")),
            ("0123", .usernameDiscriminatorCannotHaveLeadingZeros("")), ("012", .usernameDiscriminatorCannotHaveLeadingZeros("")),
            ("1", .usernameDiscriminatorCannotBeSingleDigit("")), ("+1", .badDiscriminatorCharacter("")),
            ("-1", .badDiscriminatorCharacter("")), ("+01", .badDiscriminatorCharacter("")), ("+123", .badDiscriminatorCharacter("")),
            ("-123", .badDiscriminatorCharacter("")), ("+12", .badDiscriminatorCharacter("")),
            ("123456789012345678901234567890", .usernameDiscriminatorTooLarge("")),
            ("18446744073709551616", .usernameDiscriminatorTooLarge("")), ("a1", .badDiscriminatorCharacter("")),
        ]
        for (discriminator, expected) in discriminators {
            #expect(
                Self.error { try Username(nickname: "ehren", discriminator: discriminator, withValidLengthWithin: 3...32) }
                    == Self.kind(expected), "\(discriminator)")
            #expect(Self.error { try Username("ehren.\(discriminator)") } != nil)
        }
        #expect(Self.error { try Username("no_discriminator") } == Self.kind(SignalError.missingSeparator("")))
        #expect(
            Self.error { try Username(nickname: "abcde", discriminator: "01", withValidLengthWithin: 10...32) }
                == Self.kind(SignalError.nicknameTooShort("")))
        #expect(
            Self.error { try Username(nickname: "abcde", discriminator: "01", withValidLengthWithin: 3...4) }
                == Self.kind(SignalError.nicknameTooLong("")))
        for invalid in ["0zerostart.01", "zero.00", "short_zero.0", "short_one.1", "zeropad.001", "🦀.42"] {
            #expect(Self.error { try Username(invalid) } != nil, "\(invalid)")
        }
    }

    @Test func onlyASCIIIsFoldedAndErrorsComeInLibsignalsOrder() {
        // The Kelvin sign lower-cases to "k" in Unicode, not in ASCII: libsignal refuses it, so does Parley.
        #expect(Self.error { try Username("\u{212A}ate.42") } == Self.kind(SignalError.badNicknameCharacter("")))
        #expect(Self.error { try Username(nickname: "\u{212A}ate", discriminator: "42", withValidLengthWithin: 3...32) } != nil)
        #expect(throws: SignalError.self) { try Username.candidates(from: "\u{212A}ate") }
        // Overflow before the stray character, as Rust's parser meets them; a combining mark after the dot is part of
        // the number.
        #expect(Self.error { try Username("ehren.184467440737095516160x") } == Self.kind(SignalError.usernameDiscriminatorTooLarge("")))
        #expect(Self.error { try Username("ehren.1x84467440737095516160") } == Self.kind(SignalError.badDiscriminatorCharacter("")))
        #expect(Self.error { try Username("abc.\u{301}42") } == Self.kind(SignalError.badDiscriminatorCharacter("")))
        // The identity point is no username's hash.
        #expect(!Username.isHash([UInt8](repeating: 0, count: 32)))
    }

    /// The case name of the error `body` throws (`nil` when it throws none).
    static func error(_ body: () throws -> Username) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return kind(error)
        }
    }

    static func kind(_ error: any Error) -> String {
        String(String(describing: Mirror(reflecting: error).children.first?.label ?? "\(error)"))
    }

    @Test func aLinkCarriesTheUsernameAndReusedEntropyMakesANewCiphertext() throws {
        let original = try Username("SiGNAl.42")
        let (entropy, linkBytes) = try original.createLink()
        #expect(entropy.count == 32 && linkBytes.count == 16 + 64 + 32)
        #expect(try Username(fromLink: linkBytes, withRandomness: entropy) == original)
        let (sameEntropy, newLinkBytes) = try original.createLink(previousEntropy: entropy)
        #expect(sameEntropy == entropy && newLinkBytes != linkBytes)
        #expect(try Username(fromLink: newLinkBytes, withRandomness: entropy) == original)
        // Every username, short or as long as they come, makes a link of the same length.
        let longest = try Username(String(repeating: "a", count: 32) + ".\(UInt64.max)")
        #expect(try longest.createLink().1.count == linkBytes.count)
        #expect(try Username(fromLink: try longest.createLink(previousEntropy: entropy).1, withRandomness: entropy) == longest)
    }

    @Test func badLinksHaveLibsignalsErrors() throws {
        #expect(
            Self.error { try Username(fromLink: [UInt8](repeating: 0, count: 32), withRandomness: [UInt8](repeating: 0, count: 16)) }
                == Self.kind(SignalError.usernameLinkInvalidEntropyDataLength("")))
        #expect(
            Self.error { try Username(fromLink: [UInt8](repeating: 0, count: 32), withRandomness: [UInt8](repeating: 0, count: 32)) }
                == Self.kind(SignalError.usernameLinkInvalid("")))
        // Long enough but a MAC of zeros; the right link under other entropy; a flipped byte; the link cut short.
        let (entropy, link) = try Username("alice.42").createLink()
        let invalid = Self.kind(SignalError.usernameLinkInvalid(""))
        #expect(Self.error { try Username(fromLink: [UInt8](repeating: 0, count: 16 + 32 + 32), withRandomness: entropy) } == invalid)
        #expect(Self.error { try Username(fromLink: link, withRandomness: Data(repeating: 7, count: 32)) } == invalid)
        var flipped = link
        flipped[20] ^= 1
        #expect(Self.error { try Username(fromLink: flipped, withRandomness: entropy) } == invalid)
        #expect(Self.error { try Username(fromLink: link.prefix(48), withRandomness: entropy) } == invalid)
        #expect(throws: SignalError.self) { try Username("alice.42").createLink(previousEntropy: Data(count: 31)) }
    }
}
