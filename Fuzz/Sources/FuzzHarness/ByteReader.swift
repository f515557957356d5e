/// Reads an input byte by byte; past the end it yields zeros.
public struct ByteReader {
    private let bytes: [UInt8]
    private var position = 0

    /// A reader at the input's start.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte was read.
    public var isExhausted: Bool { position >= bytes.count }

    /// The next byte, or zero past the end.
    public mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }
}
