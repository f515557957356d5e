import Foundation

/// The stored form of a waveform: little-endian Float32 samples.
enum Waveform {
    static func encode(_ samples: [Float]) -> Data {
        var data = Data(capacity: samples.count * 4)
        for sample in samples { withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    static func decode(_ data: Data?) -> [Float] {
        guard let data, data.count % 4 == 0 else { return [] }
        return stride(from: 0, to: data.count, by: 4).map { offset in
            let bits = data[data.startIndex + offset..<data.startIndex + offset + 4].enumerated()
                .reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
            return Float(bitPattern: bits)
        }
    }
}
