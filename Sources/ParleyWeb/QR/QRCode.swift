/// A QR code (ISO/IEC 18004, model 2) holding bytes: byte mode, the smallest version (1…40) that holds them at the
/// chosen error-correction level, and the mask (0…7) with the lowest penalty — or a version and mask given.
///
/// Written from the standard; `Tests/ParleyLocalServiceTests/Vectors/qr.json`, made by PyPI's `qrcode`, pins its
/// output module for module.
public struct QRCode: Sendable, Equatable {
    /// How much of the symbol may be damaged and still read: about 7, 15, 25 or 30 %.
    public enum ErrorCorrection: Int, Sendable, CaseIterable {
        case low, medium, quartile, high

        /// The two bits of the format information.
        var formatBits: Int { [1, 0, 3, 2][rawValue] }
    }

    /// The version, 1…40 (the symbol is 17 + 4 × version modules wide).
    public let version: Int
    /// The modules across (and down).
    public let size: Int
    /// The mask applied, 0…7.
    public let mask: Int
    public let errorCorrection: ErrorCorrection
    /// Whether each module is dark, row by row.
    public let modules: [Bool]

    /// Whether the module in column `x`, row `y` is dark.
    public subscript(x x: Int, y y: Int) -> Bool { modules[y * size + x] }

    /// The QR code of `bytes`.
    /// - Throws: ``QRCodeError`` when `bytes` do not fit in a version-40 symbol (or the version given), or a version or
    ///   mask is out of range.
    public init(bytes: [UInt8], errorCorrection: ErrorCorrection = .medium, version: Int? = nil, mask: Int? = nil) throws(QRCodeError) {
        if let version, !(1...40).contains(version) { throw .invalidVersion(version) }
        if let mask, !(0...7).contains(mask) { throw .invalidMask(mask) }
        let candidates = version.map { [$0] } ?? Array(1...40)
        guard
            let chosen = candidates.first(where: {
                Self.dataBits(for: bytes.count, version: $0) <= Self.dataCodewords($0, errorCorrection) * 8
            })
        else { throw .tooLong(bytes.count) }
        var matrix = QRMatrix(version: chosen)
        matrix.drawFunctionPatterns(errorCorrection: errorCorrection)
        matrix.drawCodewords(Self.codewords(bytes, version: chosen, errorCorrection: errorCorrection))
        let chosenMask: Int
        if let mask {
            chosenMask = mask
        } else {
            chosenMask = (0...7).min { first, second in
                matrix.masked(first, errorCorrection: errorCorrection).penalty
                    < matrix.masked(second, errorCorrection: errorCorrection).penalty
            }!
        }
        let final = matrix.masked(chosenMask, errorCorrection: errorCorrection)
        self.version = chosen
        size = final.size
        self.mask = chosenMask
        self.errorCorrection = errorCorrection
        modules = final.dark
    }

    /// The symbol as an SVG image: one path of `moduleSize`-unit squares on white, with a quiet zone of `quietZone`
    /// modules around it.
    public func svg(moduleSize: Int = 4, quietZone: Int = 4) -> String {
        let width = (size + 2 * quietZone) * moduleSize
        var path = ""
        for y in 0..<size {
            for x in 0..<size where self[x: x, y: y] {
                path += "M\((x + quietZone) * moduleSize),\((y + quietZone) * moduleSize)h\(moduleSize)v\(moduleSize)h-\(moduleSize)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(width)" width="\(width)" height="\(width)" \
            shape-rendering="crispEdges"><rect width="\(width)" height="\(width)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    // MARK: Capacity and codewords

    /// The bits a byte-mode segment of `count` bytes takes in `version`.
    static func dataBits(for count: Int, version: Int) -> Int { 4 + (version < 10 ? 8 : 16) + 8 * count }

    /// The modules left for data and error correction once the function patterns are drawn.
    static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    /// The data codewords `version` holds at `level`.
    static func dataCodewords(_ version: Int, _ level: ErrorCorrection) -> Int {
        rawDataModules(version) / 8 - Self.eccPerBlock[level.rawValue][version] * Self.blocks[level.rawValue][version]
    }

    /// The codewords to place: the byte-mode segment padded to the data capacity, split into blocks, each followed by
    /// its Reed–Solomon error correction, interleaved.
    static func codewords(_ bytes: [UInt8], version: Int, errorCorrection level: ErrorCorrection) -> [UInt8] {
        let capacity = dataCodewords(version, level)
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version < 10 ? 8 : 16)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < capacity {
            data.append(pad)
            pad ^= 0xEC ^ 0x11
        }
        let blockCount = blocks[level.rawValue][version]
        let eccLength = eccPerBlock[level.rawValue][version]
        let rawCodewords = rawDataModules(version) / 8
        let shortBlocks = blockCount - rawCodewords % blockCount
        let shortLength = rawCodewords / blockCount
        let divisor = ReedSolomon.divisor(degree: eccLength)
        var blocksOut: [[UInt8]] = []
        var offset = 0
        for index in 0..<blockCount {
            let length = shortLength - eccLength + (index < shortBlocks ? 0 : 1)
            var block = Array(data[offset..<offset + length])
            offset += length
            let ecc = ReedSolomon.remainder(block, divisor: divisor)
            if index < shortBlocks { block.append(0) }
            blocksOut.append(block + ecc)
        }
        var result: [UInt8] = []
        for position in 0..<blocksOut[0].count {
            for (index, block) in blocksOut.enumerated() where position != shortLength - eccLength || index >= shortBlocks {
                result.append(block[position])
            }
        }
        return result
    }

    /// Error-correction codewords per block, by level (L, M, Q, H) and version (index 0 unused).
    static let eccPerBlock: [[Int]] = [
        [
            -1, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            -1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
            28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            -1, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            -1, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]

    /// Error-correction blocks, by level (L, M, Q, H) and version (index 0 unused).
    static let blocks: [[Int]] = [
        [
            -1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21,
            22, 24, 25,
        ],
        [
            -1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37,
            38, 40, 43, 45, 47, 49,
        ],
        [
            -1, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51,
            53, 56, 59, 62, 65, 68,
        ],
        [
            -1, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57,
            60, 63, 66, 70, 74, 77, 81,
        ],
    ]
}

/// Why a QR code could not be made.
public enum QRCodeError: Error, Equatable, CustomStringConvertible {
    /// More bytes than the largest symbol (or the version asked for) holds at that level.
    case tooLong(Int)
    case invalidVersion(Int)
    case invalidMask(Int)

    public var description: String {
        switch self {
        case .tooLong(let count): "\(count) bytes do not fit in a QR code at this error-correction level"
        case .invalidVersion(let version): "a QR code's version is 1…40, not \(version)"
        case .invalidMask(let mask): "a QR code's mask is 0…7, not \(mask)"
        }
    }
}
