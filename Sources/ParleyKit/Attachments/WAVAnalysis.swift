import Foundation

/// Decodes a WAV file's samples to measure it: the duration, and a waveform of up to 100 peak levels in 0…1
/// (each the loudest sample, all channels, of an equal slice of the recording, relative to full scale). Reads
/// the file in 64 KiB blocks, so memory stays flat for long recordings.
public struct WAVAnalysis: Sendable, Equatable {
    /// Length in milliseconds.
    public let durationMilliseconds: UInt32
    /// Peak levels, one per slice, at most ``AttachmentPointer/maximumWaveformSamples``.
    public let waveform: [Float]
    /// Samples per second.
    public let sampleRate: UInt32
    /// Channels.
    public let channels: UInt16

    private struct Format {
        var encoding: UInt16  // 1 integer PCM, 3 IEEE float
        var channels: UInt16
        var sampleRate: UInt32
        var blockAlign: UInt16
        var bitsPerSample: UInt16
    }

    /// Measures the WAV file at `file`.
    ///
    /// - Throws: ``ParleyError/Audio`` for files that are not WAV, are truncated, or use a sample format it does not decode.
    public init(file: URL) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let fileSize = try handle.seekToEnd()
        try handle.seek(toOffset: 0)
        func read(_ count: Int) throws -> [UInt8] { [UInt8](try handle.read(upToCount: count) ?? Data()) }
        let header = try read(12)
        guard header.count == 12, header[0..<4] == Array("RIFF".utf8)[...], header[8..<12] == Array("WAVE".utf8)[...] else {
            throw ParleyError.audio(.notWAV)
        }
        var format: Format?
        var offset: UInt64 = 12
        while true {
            let chunk = try read(8)
            guard chunk.count == 8 else { throw ParleyError.audio(.malformed("no data chunk")) }
            let id = String(decoding: chunk[0..<4], as: UTF8.self)
            let size = UInt64(Self.uint32(chunk, 4))
            offset += 8
            guard offset + size <= fileSize || id == "data" else {
                throw ParleyError.audio(.malformed("the \(id) chunk runs past the end of the file"))
            }
            if id == "fmt " {
                guard size >= 16, size <= 1024 else { throw ParleyError.audio(.malformed("fmt chunk of \(size) bytes")) }
                let body = try read(Int(size))
                guard body.count == Int(size) else { throw ParleyError.audio(.malformed("truncated fmt chunk")) }
                var encoding = Self.uint16(body, 0)
                if encoding == 0xFFFE, size >= 26 { encoding = Self.uint16(body, 24) }  // WAVE_FORMAT_EXTENSIBLE: the sub-format's tag
                format = Format(
                    encoding: encoding, channels: Self.uint16(body, 2), sampleRate: Self.uint32(body, 4),
                    blockAlign: Self.uint16(body, 12), bitsPerSample: Self.uint16(body, 14))
            } else if id == "data" {
                guard let format else { throw ParleyError.audio(.malformed("data before fmt")) }
                // A streamed recording may leave the size at 0 or 0xFFFFFFFF: the data then runs to the end of the file.
                let available = fileSize - offset
                let dataSize = size == 0 || size == 0xFFFF_FFFF ? available : min(size, available)
                let measured = try Self.measure(handle, bytes: dataSize, format: format)
                durationMilliseconds = measured.duration
                waveform = measured.waveform
                sampleRate = format.sampleRate
                channels = format.channels
                return
            }
            offset += size + (size & 1)
            try handle.seek(toOffset: offset)
        }
    }

    private static func measure(_ handle: FileHandle, bytes: UInt64, format: Format) throws -> (duration: UInt32, waveform: [Float]) {
        let bytesPerSample = (Int(format.bitsPerSample) + 7) / 8
        guard format.channels > 0, format.sampleRate > 0, format.sampleRate <= 768_000 else {
            throw ParleyError.audio(.malformed("\(format.channels) channels at \(format.sampleRate) Hz"))
        }
        switch (format.encoding, format.bitsPerSample) {
        case (1, 8), (1, 16), (1, 24), (1, 32), (3, 32), (3, 64): break
        default: throw ParleyError.audio(.unsupportedFormat("encoding \(format.encoding), \(format.bitsPerSample) bits per sample"))
        }
        guard Int(format.blockAlign) == bytesPerSample * Int(format.channels) else {
            throw ParleyError.audio(
                .malformed("block align \(format.blockAlign) for \(format.channels) × \(format.bitsPerSample)-bit samples"))
        }
        let frameBytes = Int(format.blockAlign)
        let frames = bytes / UInt64(frameBytes)
        let duration = UInt32(clamping: frames * 1000 / UInt64(format.sampleRate))
        guard frames > 0 else { return (duration, []) }
        let slices = Int(min(UInt64(AttachmentPointer.maximumWaveformSamples), frames))
        var peaks = [Float](repeating: 0, count: slices)
        var frameIndex: UInt64 = 0
        var remaining = frames * UInt64(frameBytes)
        var carry: [UInt8] = []
        while remaining > 0 {
            let block = try handle.read(upToCount: Int(min(remaining, 65_536))) ?? Data()
            guard !block.isEmpty else { break }
            remaining -= UInt64(block.count)
            var bytes = carry + [UInt8](block)
            let whole = bytes.count / frameBytes * frameBytes
            carry = Array(bytes[whole...])
            bytes.removeLast(bytes.count - whole)
            bytes.withUnsafeBufferPointer { buffer in
                var position = 0
                while position < whole {
                    let slice = Int(frameIndex * UInt64(slices) / frames)
                    var peak = peaks[slice]
                    for channel in 0..<Int(format.channels) {
                        let level = sampleLevel(buffer, at: position + channel * bytesPerSample, format: format)
                        if level > peak { peak = level }
                    }
                    peaks[slice] = peak
                    position += frameBytes
                    frameIndex += 1
                }
            }
        }
        return (duration, peaks.map { min(1, max(0, $0)) })
    }

    /// The absolute level of one sample relative to full scale.
    private static func sampleLevel(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, format: Format) -> Float {
        switch (format.encoding, format.bitsPerSample) {
        case (1, 8): return abs(Float(Int(bytes[index]) - 128)) / 128
        case (1, 16): return abs(Float(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8))) / 32_768
        case (1, 24):
            let raw = Int32(bytes[index]) | Int32(bytes[index + 1]) << 8 | Int32(bytes[index + 2]) << 16
            return abs(Float((raw << 8) >> 8)) / 8_388_608
        case (1, 32): return abs(Float(Int32(bitPattern: uint32(bytes, index)))) / 2_147_483_648
        case (3, 32):
            let value = Float(bitPattern: uint32(bytes, index))
            return value.isFinite ? abs(value) : 0
        default:
            let bits = UInt64(uint32(bytes, index)) | UInt64(uint32(bytes, index + 4)) << 32
            let value = Double(bitPattern: bits)
            return value.isFinite ? Float(abs(value)) : 0
        }
    }

    private static func uint16<C: RandomAccessCollection>(_ bytes: C, _ offset: Int) -> UInt16 where C.Element == UInt8, C.Index == Int {
        UInt16(bytes[bytes.startIndex + offset]) | UInt16(bytes[bytes.startIndex + offset + 1]) << 8
    }

    private static func uint32<C: RandomAccessCollection>(_ bytes: C, _ offset: Int) -> UInt32 where C.Element == UInt8, C.Index == Int {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[bytes.startIndex + offset + $1]) << (8 * UInt32($1)) }
    }
}
