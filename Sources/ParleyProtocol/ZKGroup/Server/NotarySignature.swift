import Foundation

/// A server's signature (64 bytes: a poksho proof of knowledge of its signing key, bound to the message), as a group
/// server signs each accepted change.
public final class NotarySignature: ByteArray, @unchecked Sendable {
    /// Its length in bytes.
    public static let SIZE = 64

    /// The signature `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` unless it is 64 bytes.
    public required init(contents: Data) throws {
        try super.init(newContents: contents, expectedLength: Self.SIZE)
    }

    init(bytes: [UInt8]) { super.init(checked: bytes) }

    /// The statement a signature proves: the public key is the private key times the generator.
    static var statement: PokshoStatement {
        var statement = PokshoStatement()
        statement.add("public_key", [("private_key", "G")])
        return statement
    }
}
