/// A QR symbol being drawn: its modules, and which of them belong to function patterns (finders, timing, alignment,
/// format and version information), which data and masks leave alone.
struct QRMatrix {
    let version: Int
    let size: Int
    var dark: [Bool]
    var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
    }

    private mutating func setFunction(_ x: Int, _ y: Int, _ isDark: Bool) {
        dark[y * size + x] = isDark
        isFunction[y * size + x] = true
    }

    // MARK: Function patterns

    mutating func drawFunctionPatterns(errorCorrection: QRCode.ErrorCorrection) {
        for index in 0..<size {
            setFunction(6, index, index % 2 == 0)
            setFunction(index, 6, index % 2 == 0)
        }
        drawFinder(3, 3)
        drawFinder(size - 4, 3)
        drawFinder(3, size - 4)
        let positions = alignmentPositions
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(mask: 0, errorCorrection: errorCorrection)
        drawVersion()
    }

    private mutating func drawFinder(_ x: Int, _ y: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let distance = max(abs(dx), abs(dy))
                let (column, row) = (x + dx, y + dy)
                if (0..<size).contains(column), (0..<size).contains(row) { setFunction(column, row, distance != 2 && distance != 4) }
            }
        }
    }

    /// The centres of the alignment patterns along each axis.
    var alignmentPositions: [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var result = [6]
        for index in stride(from: count - 1, through: 1, by: -1) { result.insert(size - 7 - (count - 1 - index) * step, at: 1) }
        return result
    }

    /// The format information (level and mask, BCH-protected) in both its places, and the dark module.
    mutating func drawFormatBits(mask: Int, errorCorrection: QRCode.ErrorCorrection) {
        let data = errorCorrection.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(8, index, bit(index)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
        for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
        setFunction(8, size - 8, true)
    }

    /// The version information (versions 7 and up), in both its places.
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let isDark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            setFunction(a, b, isDark)
            setFunction(b, a, isDark)
        }
    }

    // MARK: Data

    /// Places `codewords` in the zigzag order, two columns at a time from the right, skipping function modules.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y * size + x], index < codewords.count * 8 else { continue }
                    dark[y * size + x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    /// This symbol with mask `mask` applied to its data modules and the format information to say so.
    func masked(_ mask: Int, errorCorrection: QRCode.ErrorCorrection) -> QRMatrix {
        var result = self
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let invert =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if invert { result.dark[y * size + x].toggle() }
            }
        }
        result.drawFormatBits(mask: mask, errorCorrection: errorCorrection)
        return result
    }

    // MARK: Penalty

    /// The standard's penalty score (lower reads better): runs of five or more, 2×2 blocks, finder-like patterns and
    /// an unbalanced share of dark modules.
    var penalty: Int {
        var score = 0
        let finderLike: [[Bool]] = [
            [true, false, true, true, true, false, true, false, false, false, false],
            [false, false, false, false, true, false, true, true, true, false, true],
        ]
        for line in 0..<size {
            for horizontal in [true, false] {
                let cells = (0..<size).map { horizontal ? dark[line * size + $0] : dark[$0 * size + line] }
                var run = 1
                for index in 1..<size {
                    if cells[index] == cells[index - 1] {
                        run += 1
                        if run == 5 { score += 3 } else if run > 5 { score += 1 }
                    } else {
                        run = 1
                    }
                }
                for start in 0...(size - 11) {
                    let window = Array(cells[start..<start + 11])
                    if finderLike.contains(window) { score += 40 }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = dark[y * size + x]
                if color == dark[y * size + x + 1], color == dark[(y + 1) * size + x], color == dark[(y + 1) * size + x + 1] {
                    score += 3
                }
            }
        }
        let total = size * size
        let darkCount = dark.filter { $0 }.count
        let k = (abs(darkCount * 20 - total * 10) + total - 1) / total - 1
        score += max(0, k) * 10
        return score
    }
}
