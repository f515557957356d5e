import Foundation

/// A private scratch directory for targets that read files, made once per fuzzing process (libFuzzer runs one input
/// at a time, so the targets reuse fixed names in it).
enum FuzzFiles {
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
}
