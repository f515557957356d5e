import ArgumentParser
import Foundation
import ParleyCompat
import ParleyKit

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract:
            "Serve JSON-RPC 2.0 — signal-cli's daemon protocol — on stdin/stdout, a Unix socket or HTTP; incoming messages arrive as `receive` notifications.",
        discussion: """
            signal-cli's methods (send, sendReaction, sendReceipt, sendTyping, remoteDelete, listGroups, updateGroup, quitGroup,
            getUserStatus, listContacts, listIdentities, trust, listDevices, removeDevice, version) and Parley's own: send
            {recipient, text, attachments?, replyTo?}, receive, conversations, history {recipient, before?, limit?},
            safetyNumber {recipient}, trust {recipient}, devices. A recipient is a username, an account id, u:USERNAME, or
            +DIGITS for an account whose username is those digits. Example:
              {"jsonrpc":"2.0","id":1,"method":"send","params":{"recipient":["+15550000002"],"message":"hi"}}
            With --socket PATH, any number of local clients may connect (the socket is 0600); each gets its responses and
            every `receive` notification. With --http HOST:PORT (loopback unless you say otherwise; anyone who can reach it
            acts as this account): POST /api/v1/rpc, GET /api/v1/events (server-sent events), GET /api/v1/check.
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: "Serve on a Unix domain socket at this path instead of stdin/stdout.") var socket: String?
    @Option(help: "Serve newline-delimited JSON-RPC on TCP at HOST:PORT (signal-cli's --tcp; port 0 picks one, printed on stderr).")
    var tcp: String?
    @Flag(
        help:
            "Serve every registered account under --home (signal-cli's multi-account mode): each request names one with its `account` parameter."
    )
    var allAccounts = false
    @Option(help: "Serve signal-cli's HTTP transport on HOST:PORT (port 0 picks one; the address is printed on stderr).")
    var http: String?

    func run() async throws {
        // The socket is made, and the addresses parsed, before any account is opened.
        let daemon = try JSONRPCDaemon(socket: socket, tcp: tcp, http: http)
        defer { daemon.close() }
        try await AccountContext.with(options, every: allAccounts) { clients in
            for (_, client) in clients { try client.claimReceiving() }
            try await daemon.run(serving: clients.map { ServedAccount(name: $0.name, client: $0.client) }, allAccounts: allAccounts)
        }
    }
}
