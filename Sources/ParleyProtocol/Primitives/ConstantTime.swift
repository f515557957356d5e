/// Comparisons whose running time does not depend on the bytes compared.
enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes; the time taken depends only on their lengths.
    static func equals<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
