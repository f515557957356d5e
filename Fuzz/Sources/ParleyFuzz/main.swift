import Foundation

/// The fuzz target this process runs, named by `PARLEY_FUZZ_TARGET` (Scripts/fuzz.sh sets it).
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// libFuzzer's set-up hook: picks the target and, with `PARLEY_FUZZ_SEEDS=DIR`, writes its seed inputs there.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let environment = ProcessInfo.processInfo.environment
    guard let name = environment["PARLEY_FUZZ_TARGET"], let target = FuzzTarget.all[name] else {
        let names = FuzzTarget.all.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("set PARLEY_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    selectedTarget = target
    if let directory = environment["PARLEY_FUZZ_SEEDS"] {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (index, seed) in target.seeds().enumerated() {
            _ = FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: Data(seed))
        }
    }
    return 0
}

/// libFuzzer's entry point: one input to the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selectedTarget?.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
