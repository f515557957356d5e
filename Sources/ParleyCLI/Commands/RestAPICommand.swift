import ArgumentParser
import Foundation
import ParleyCompat
import ParleyKit

struct RestAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rest-api",
        abstract: "Serve signal-cli-rest-api's REST surface (json-rpc mode) for bots written against it, such as signalbot.",
        discussion: """
            POST /v2/send, the /v1/receive/{number} WebSocket, /v1/groups/{number}, /v1/reactions/{number},
            /v1/receipts/{number}, /v1/typing-indicator/{number}, /v1/remote-delete/{number}, /v1/identities/{number},
            /v1/devices/{number}, /v1/attachments/{id}, /v1/about, /v1/health. {number} is the account's +DIGITS number
            (a digits-only username), its account id or its username. There is no authentication: anyone who can reach
            the address acts as the account, so it listens on loopback unless told otherwise — put a reverse proxy that
            authenticates in front of it to serve it further.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: "Listen on HOST:PORT (port 0 picks one; the address is printed on stderr).") var listen = "127.0.0.1:8080"
    @Flag(help: "Serve every registered account under --home, each under its own {number}.") var allAccounts = false

    func run() async throws {
        let server = try RestAPIServer(listen: listen)
        try await AccountContext.with(options, every: allAccounts) { clients in
            for (_, client) in clients { try client.claimReceiving() }
            try await server.run(serving: clients.map { ServedAccount(name: $0.name, client: $0.client) }, allAccounts: allAccounts)
        }
    }
}
