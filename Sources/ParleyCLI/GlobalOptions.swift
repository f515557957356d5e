import ArgumentParser
import Foundation

/// Options every `parley` command takes.
public struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "Local account name: each has its own encrypted database (environment: PARLEY_ACCOUNT).")
    public var account = ProcessInfo.processInfo.environment["PARLEY_ACCOUNT"] ?? "default"

    @Option(name: .long, help: "Directory holding the accounts (environment: PARLEY_HOME; default ~/.parley).")
    public var home =
        ProcessInfo.processInfo.environment["PARLEY_HOME"]
        ?? (NSHomeDirectory() as NSString).appendingPathComponent(".parley")

    @Flag(name: .long, help: "Print JSON (one object per line) instead of text.")
    public var json = false

    public init() {}

    /// The account's folder.
    var accountDirectory: URL {
        URL(fileURLWithPath: home).appendingPathComponent("accounts").appendingPathComponent(account)
    }

    /// `arguments` (without the program name) with the options every command takes moved from before the subcommand
    /// to the end, where the subcommand parses them: `parley --account bob send alice hi` works like
    /// `parley send alice hi --account bob`.
    public static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first == "--json" {
                leading.append(first)
                rest.removeFirst()
            } else if first == "--account" || first == "--home", rest.count >= 2 {
                leading += rest.prefix(2)
                rest.removeFirst(2)
            } else if first.hasPrefix("--account=") || first.hasPrefix("--home=") {
                leading.append(first)
                rest.removeFirst()
            } else {
                break
            }
        }
        guard !leading.isEmpty, !rest.isEmpty else { return arguments }
        return Array(rest) + leading
    }
}

/// The device name a command uses when `--device-name` is not given: `parley on HOST` (this machine's host name, cut to
/// what the server takes), so `parley devices` tells machines apart.
enum DefaultDeviceName {
    static func or(_ given: String?) -> String {
        if let given { return given }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        return String(("parley on " + (host.isEmpty ? "this machine" : host)).prefix(64))
    }
}
