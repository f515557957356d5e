import ArgumentParser
import Foundation

/// Options every `parley` command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "Local account name: each has its own encrypted database (environment: PARLEY_ACCOUNT).")
    public var account = ProcessInfo.processInfo.environment["PARLEY_ACCOUNT"] ?? "default"

    @Option(name: .long, help: "Directory holding the accounts (environment: PARLEY_HOME; default ~/.parley).")
    public var home = ProcessInfo.processInfo.environment["PARLEY_HOME"]
        ?? (NSHomeDirectory() as NSString).appendingPathComponent(".parley")

    @Flag(name: .long, help: "Print JSON (one object per line) instead of text.")
    public var json = false

    public init() {}

    /// The account's folder.
    var accountDirectory: URL {
        URL(fileURLWithPath: home).appendingPathComponent("accounts").appendingPathComponent(account)
    }
}
