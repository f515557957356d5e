/// Cryptographically secure random bytes from the system generator (getrandom on Linux).
enum SecureRandom {
    /// `count` random bytes.
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var result = [UInt8]()
        result.reserveCapacity(count + 8)
        while result.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { result.append(contentsOf: $0) }
        }
        result.removeLast(result.count - count)
        return result
    }

    /// A random value in `range`.
    static func value(in range: ClosedRange<UInt32>) -> UInt32 {
        var generator = SystemRandomNumberGenerator()
        return UInt32.random(in: range, using: &generator)
    }
}
