import Foundation

/// 32 bytes, the shape of ``Randomness``'s value (LibSignalClient's name for it).
public typealias SignalRandomnessBytes = (
    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
)

/// 32 random bytes for a zkgroup operation that needs them: the operations taking one are deterministic in it (tests
/// pass fixed ones to compare with libsignal's bytes); those without take fresh ones from the system.
public struct Randomness: Sendable {
    /// The bytes.
    public var bytes: SignalRandomnessBytes

    /// Randomness of these bytes.
    public init(_ bytes: SignalRandomnessBytes) {
        self.bytes = bytes
    }

    /// The bytes as an array.
    var array: [UInt8] { withUnsafeBytes(of: bytes) { Array($0) } }

    /// Fresh randomness from the system's generator.
    static func generate() -> Randomness {
        var generator = SystemRandomNumberGenerator()
        var value = Randomness((0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        withUnsafeMutableBytes(of: &value.bytes) { buffer in
            for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        return value
    }
}
