import Foundation

/// What each fuzz binary's libFuzzer hooks call: the binary passes its own targets, so a binary links (and libFuzzer
/// scans the coverage counters of) only the code its targets reach.
public enum FuzzEntry {
    /// The target this process runs, named by `PARLEY_FUZZ_TARGET` (Scripts/fuzz.sh sets it).
    nonisolated(unsafe) private static var selected: FuzzTarget?

    /// libFuzzer's set-up hook: picks the target from `targets` and, with `PARLEY_FUZZ_SEEDS=DIR`, writes its seed
    /// inputs there. With `PARLEY_FUZZ_LIST=1` it prints the binary's target names, one a line, and exits.
    public static func initialize(targets: [String: FuzzTarget]) -> CInt {
        let environment = ProcessInfo.processInfo.environment
        if environment["PARLEY_FUZZ_LIST"] == "1" {
            print(targets.keys.sorted().joined(separator: "\n"))
            exit(0)
        }
        guard let name = environment["PARLEY_FUZZ_TARGET"], let target = targets[name] else {
            let names = targets.keys.sorted().joined(separator: ", ")
            FileHandle.standardError.write(Data("set PARLEY_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(2)
        }
        selected = target
        if let directory = environment["PARLEY_FUZZ_SEEDS"] {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (index, seed) in target.seeds().enumerated() {
                _ = FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: Data(seed))
            }
        }
        return 0
    }

    /// libFuzzer's entry point: one input to the selected target.
    public static func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        selected?.run(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
}
