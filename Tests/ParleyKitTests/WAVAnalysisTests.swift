import Foundation
import Testing

@testable import ParleyKit

/// The WAV reader behind voice-note metadata: real decoding of the sample formats it claims, typed errors otherwise.
@Suite struct WAVAnalysisTests {
    /// A WAV file of `frames` frames whose sample at (frame, channel) is `signal` in -1…1.
    static func wav(
        sampleRate: UInt32, channels: UInt16, bits: UInt16, float: Bool = false, frames: Int,
        signal: (Int, Int) -> Double
    ) -> Data {
        let bytesPerSample = Int(bits) / 8
        var samples = Data()
        for frame in 0..<frames {
            for channel in 0..<Int(channels) {
                let value = max(-1, min(1, signal(frame, channel)))
                switch (float, bits) {
                case (true, 32): samples.append(contentsOf: le(Float(value).bitPattern))
                case (false, 8): samples.append(UInt8(clamping: Int((value * 127).rounded()) + 128))
                case (false, 16): samples.append(contentsOf: le(UInt16(bitPattern: Int16((value * 32_767).rounded()))))
                case (false, 24):
                    let raw = UInt32(bitPattern: Int32((value * 8_388_607).rounded()))
                    samples.append(contentsOf: [UInt8(raw & 0xFF), UInt8(raw >> 8 & 0xFF), UInt8(raw >> 16 & 0xFF)])
                default: samples.append(contentsOf: le(UInt32(bitPattern: Int32((value * 2_147_483_647).rounded()))))
                }
            }
        }
        var file = Data("RIFF".utf8) + le(UInt32(36 + samples.count)) + Data("WAVE".utf8)
        file += Data("fmt ".utf8) + le(UInt32(16)) + le(UInt16(float ? 3 : 1)) + le(channels) + le(sampleRate)
        file += le(sampleRate * UInt32(channels) * UInt32(bytesPerSample)) + le(UInt16(Int(channels) * bytesPerSample)) + le(bits)
        file += Data("LIST".utf8) + le(UInt32(3)) + Data([1, 2, 3, 0])  // an odd-sized chunk to skip, with its pad byte
        return file + Data("data".utf8) + le(UInt32(samples.count)) + samples
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }

    static func analyze(_ data: Data) throws -> WAVAnalysis {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wav-\(UUID()).wav")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try WAVAnalysis(file: url)
    }

    @Test(arguments: [(UInt16(8), false), (16, false), (24, false), (32, false), (32, true)])
    func everySampleFormatDecodes(bits: UInt16, float: Bool) throws {
        // Stereo, 2 s at 16 kHz: silence in the first half, a full-scale square wave on the right channel after.
        let analysis = try Self.analyze(
            Self.wav(sampleRate: 16_000, channels: 2, bits: bits, float: float, frames: 32_000) { frame, channel in
                frame < 16_000 || channel == 0 ? 0 : (frame % 2 == 0 ? 1 : -1)
            })
        #expect(analysis.durationMilliseconds == 2_000 && analysis.channels == 2 && analysis.sampleRate == 16_000)
        #expect(analysis.waveform.count == 100)
        #expect(analysis.waveform.prefix(50).allSatisfy { $0 < 0.01 })
        #expect(analysis.waveform.suffix(50).allSatisfy { $0 > 0.98 && $0 <= 1 })
    }

    @Test func shortRecordingsHaveOneLevelPerFrame() throws {
        let analysis = try Self.analyze(Self.wav(sampleRate: 8_000, channels: 1, bits: 16, frames: 10) { frame, _ in Double(frame) / 10 })
        #expect(analysis.waveform.count == 10 && analysis.durationMilliseconds == 1)
    }

    @Test func malformedFilesGiveTypedErrors() throws {
        let good = Self.wav(sampleRate: 8_000, channels: 1, bits: 16, frames: 100) { _, _ in 0.5 }
        #expect(throws: ParleyError.audio(.notWAV)) { try Self.analyze(Data("not a wave file at all".utf8)) }
        // The fmt chunk cut short.
        #expect(throwsParleyError({ if case .audio = $0 { true } else { false } }, { try Self.analyze(good.prefix(30)) }))
        var adpcm = good
        adpcm[20] = 2  // MS ADPCM
        #expect(throws: ParleyError.audio(.unsupportedFormat("encoding 2, 16 bits per sample"))) { try Self.analyze(adpcm) }
        var noData = good.prefix(36 + 12)
        noData.append(contentsOf: Data("junk".utf8))
        #expect(throwsParleyError({ if case .audio = $0 { true } else { false } }, { try Self.analyze(Data(noData)) }))
    }
}
