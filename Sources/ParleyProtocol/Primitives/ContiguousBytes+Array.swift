import Foundation

extension ContiguousBytes {
    /// The bytes as an array, for the public entry points that accept any byte container.
    var byteArray: [UInt8] { withUnsafeBytes { Array($0) } }
}
