import Foundation
import Testing

@testable import ParleyWeb

/// `parley web`'s QR codes against PyPI's qrcode, module for module (`Scripts/vectors/make_qr_vectors.py`).
@Suite struct QRCodeTests {
    struct Vectors: Decodable {
        let source: String
        let cases: [Case]
    }

    struct Case: Decodable {
        let payload: String
        let level: String
        let version: Int
        let mask: Int
        let forcedVersion: Bool
        let rows: [String]
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    @Test func everySymbolMatchesQrcodesModuleForModule() throws {
        let url = try #require(Bundle.module.url(forResource: "qr", withExtension: "json", subdirectory: "Vectors"))
        let vectors = try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        #expect(vectors.cases.count == 73)
        let levels: [String: QRCode.ErrorCorrection] = ["L": .low, "M": .medium, "Q": .quartile, "H": .high]
        for vector in vectors.cases {
            let level = try #require(levels[vector.level])
            let code = try QRCode(
                bytes: Self.bytes(vector.payload), errorCorrection: level, version: vector.forcedVersion ? vector.version : nil,
                mask: vector.mask)
            #expect(code.version == vector.version, "version for \(vector.payload.count / 2) bytes at \(vector.level)")
            #expect(code.size == vector.rows.count)
            var differing = 0
            for (y, row) in vector.rows.enumerated() {
                let bits = Self.bytes(row)
                for x in 0..<code.size where code[x: x, y: y] != ((bits[x / 8] >> (7 - x % 8)) & 1 == 1) { differing += 1 }
            }
            #expect(differing == 0, "version \(vector.version) \(vector.level) mask \(vector.mask): \(differing) modules differ")
        }
    }

    @Test func theSmallestVersionAndAMaskAreChosen() throws {
        let code = try QRCode(bytes: Array("parley".utf8))
        #expect(code.version == 1)
        #expect(code.size == 21)
        #expect((0...7).contains(code.mask))
        #expect(try QRCode(bytes: Array(repeating: 7, count: 2953), errorCorrection: .low).version == 40)
    }

    @Test func whatDoesNotFitIsRefused() {
        #expect(throws: QRCodeError.tooLong(2954)) { try QRCode(bytes: Array(repeating: 7, count: 2954), errorCorrection: .low) }
        #expect(throws: QRCodeError.tooLong(20)) { try QRCode(bytes: Array(repeating: 7, count: 20), version: 1) }
        #expect(throws: QRCodeError.invalidVersion(41)) { try QRCode(bytes: [1], version: 41) }
        #expect(throws: QRCodeError.invalidMask(8)) { try QRCode(bytes: [1], mask: 8) }
    }

    @Test func theImageIsAnSVGWithAQuietZone() throws {
        let svg = try QRCode(bytes: Array("x".utf8)).svg(moduleSize: 2, quietZone: 4)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 58 58\""))
        #expect(svg.contains("M8,8h2v2h-2z"))  // the top-left finder's corner, after the quiet zone
        #expect(!svg.contains("<script"))
    }
}
