import ArgumentParser
import Foundation
import ParleyKit
import ParleyWeb

/// `parley web`: Parley in the browser, on this machine's account.
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Open Parley in a browser: a page served by this machine, on this account; keys never leave it.",
        discussion: """
            Prints the address to open as its first line: it signs one browser in, once (start parley web again for a new
            one). The page listens on loopback unless --allow-remote says otherwise. For an account not registered yet,
            pass --server: the page registers it.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: "Listen on HOST:PORT (port 0, the default, picks a free one).") var listen = "127.0.0.1:0"
    @Option(help: "The server's URL, for an account not registered yet (the page registers it).") var server: String?
    @Flag(help: "Serve on an address other than loopback: anyone who reaches it with the one-time address acts as this account.")
    var allowRemote = false
    @Flag(help: "Open the page in the default browser (xdg-open).") var open = false

    func run() async throws {
        let web = try WebServer(listen: listen, allowRemote: allowRemote)
        if !web.isLoopback {
            FileHandle.standardError.write(
                Data("parley web: warning: \(listen) is not a loopback address; guard the address printed below\n".utf8))
        }
        let open = self.open
        try await AccountContext.with(options, server: server) { client in
            try client.claimReceiving()
            try await web.run(client: client) { address in
                FileHandle.standardOutput.write(Data((address + "\n").utf8))
                guard open else { return }
                let browser = Process()
                browser.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                browser.arguments = ["xdg-open", address]
                try? browser.run()
            }
        }
    }
}
