import Foundation

/// A username's two parts checked the way libsignal checks them: a nickname of `_`, ASCII letters and digits that does
/// not start with a digit, and a discriminator of decimal digits — at least two, no leading zero past two, not zero,
/// below 2⁶⁴. The nickname keeps its case for display; only its lower-cased form is hashed.
struct UsernameParts: Sendable, Equatable {
    /// The nickname as given.
    let nickname: String
    /// The discriminator's value.
    let discriminator: UInt64

    /// The longest nickname the hash can encode (37⁴⁸ still fits below the group order); `Username`'s default limits
    /// are 3...32.
    static let longestEncodableNickname = 48

    /// The parts of `value`, split at its last `.`.
    /// - Throws: ``SignalError/missingSeparator(_:)`` without a `.`, otherwise as ``init(nickname:discriminator:)``.
    init(_ value: String) throws {
        // Split by code point, as libsignal does (a combining mark after the dot belongs to the number, not the dot).
        let scalars = value.unicodeScalars
        guard let dot = scalars.lastIndex(of: ".") else {
            throw SignalError.missingSeparator("a username is a nickname, a '.' and a number")
        }
        try self.init(
            nickname: String(String.UnicodeScalarView(scalars[..<dot])),
            discriminator: String(String.UnicodeScalarView(scalars[scalars.index(after: dot)...])))
    }

    /// The parts `nickname` and `discriminator` name, with no length limit but the hash's own.
    /// - Throws: the ``SignalError`` case for the first rule broken, in libsignal's order: the nickname's first
    ///   character, the discriminator, then the nickname's characters.
    init(nickname: String, discriminator: String) throws {
        try Self.checkPrefix(nickname)
        let value = try Self.discriminatorValue(discriminator)
        _ = try Self.nicknameCodes(nickname)
        self.nickname = nickname
        self.discriminator = value
    }

    /// Parts already checked: a nickname ``checkPrefix(_:)`` and ``nicknameCodes(_:)`` accept and a discriminator of at
    /// least 1.
    init(checkedNickname nickname: String, discriminator: UInt64) {
        self.nickname = nickname
        self.discriminator = discriminator
    }

    /// `nickname.NN`, the discriminator written with at least two digits.
    var value: String { discriminator < 10 ? "\(nickname).0\(discriminator)" : "\(nickname).\(discriminator)" }

    /// Refuses an empty nickname or one starting with a digit.
    static func checkPrefix(_ nickname: String) throws {
        guard let first = nickname.unicodeScalars.first else {
            throw SignalError.nicknameCannotBeEmpty("a username's nickname cannot be empty")
        }
        if ("0"..."9").contains(first) {
            throw SignalError.nicknameCannotStartWithDigit("a username's nickname cannot start with a digit")
        }
    }

    /// The code of each character of a nickname, ASCII letters taken without their case: `_` 1, `a`–`z` 2–27, `0`–`9`
    /// 28–37. Only ASCII is folded (libsignal's `to_ascii_lowercase`): a character whose Unicode lower case is an ASCII
    /// letter, such as the Kelvin sign, is refused like any other.
    /// - Throws: ``SignalError/badNicknameCharacter(_:)`` for any other character, ``SignalError/nicknameTooLong(_:)``
    ///   past ``longestEncodableNickname``.
    static func nicknameCodes(_ nickname: String) throws -> [UInt8] {
        var codes: [UInt8] = []
        for scalar in nickname.unicodeScalars {
            switch scalar {
            case "_": codes.append(1)
            case "a"..."z": codes.append(UInt8(scalar.value - 97 + 2))
            case "A"..."Z": codes.append(UInt8(scalar.value - 65 + 2))
            case "0"..."9": codes.append(UInt8(scalar.value - 48 + 28))
            default: throw SignalError.badNicknameCharacter("a nickname holds only letters, digits and '_'")
            }
        }
        guard codes.count <= longestEncodableNickname else {
            throw SignalError.nicknameTooLong("a nickname has at most \(longestEncodableNickname) characters")
        }
        return codes
    }

    /// The value of a discriminator written in decimal.
    static func discriminatorValue(_ text: String) throws -> UInt64 {
        let digits = Array(text.utf8)
        guard let first = digits.first else {
            throw SignalError.usernameDiscriminatorCannotBeEmpty("a username's number cannot be empty")
        }
        // Digit by digit, as Rust's integer parsing goes: whichever comes first, a character that is no digit or the
        // value passing 2⁶⁴, decides the error.
        var value: UInt64 = 0
        for digit in digits {
            guard (48...57).contains(digit) else {
                throw SignalError.badDiscriminatorCharacter("a username's number holds only the digits 0–9")
            }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(digit - 48))
            guard !overflowed, !carried else {
                throw SignalError.usernameDiscriminatorTooLarge("a username's number is at most \(UInt64.max)")
            }
            value = sum
        }
        guard value != 0 else { throw SignalError.usernameDiscriminatorCannotBeZero("a username's number cannot be zero") }
        if digits.count == 1 {
            throw SignalError.usernameDiscriminatorCannotBeSingleDigit("a username's number has at least two digits")
        }
        if digits.count > 2 && first == 48 {
            throw SignalError.usernameDiscriminatorCannotHaveLeadingZeros(
                "a username's number starts with 0 only when it has two digits")
        }
        return value
    }

    /// Refuses a nickname whose length is outside `limits` (counted after the characters are checked).
    static func checkLength(_ nickname: String, within limits: ClosedRange<UInt32>) throws {
        let count = nickname.unicodeScalars.count
        if count < limits.lowerBound {
            throw SignalError.nicknameTooShort("a nickname has at least \(limits.lowerBound) characters")
        }
        if count > limits.upperBound {
            throw SignalError.nicknameTooLong("a nickname has at most \(limits.upperBound) characters")
        }
    }
}
