/// One fuzz target: what it does with an input, and the seed inputs its corpus starts from.
public struct FuzzTarget: Sendable {
    /// Feeds one input to the code under test. A parser may refuse the input with a typed error; it must never
    /// crash, hang or break an invariant the target checks (each breach traps, which libFuzzer reports).
    public let run: @Sendable ([UInt8]) -> Void
    /// Valid inputs to start from (made by Parley's own encoders).
    public let seeds: @Sendable () -> [[UInt8]]

    /// A target.
    public init(run: @escaping @Sendable ([UInt8]) -> Void, seeds: @escaping @Sendable () -> [[UInt8]]) {
        self.run = run
        self.seeds = seeds
    }
}

/// Stops the process so libFuzzer records the input: an invariant the code under test must keep did not hold.
public func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}
