import ArgumentParser
import Foundation
import ParleyKit

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Send a message (queued durably, then sent).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "Recipient: a username or an account id.") var recipient: String
    @Argument(help: "The text.") var text: String = ""
    @Option(name: .customLong("attach"), help: "A file to attach (repeatable).") var attachments: [String] = []
    @Option(help: "Local id of the message this replies to.") var replyTo: Int64?

    func run() async throws {
        let (messageId, report, failure) = try await AccountContext.with(options) { client -> (Int64, ParleyClient.JobReport, String?) in
            let accountId = try await AccountContext.resolve(recipient, with: client)
            let id = try client.sender.enqueue(body: text, to: accountId, attachments: attachments.map { URL(fileURLWithPath: $0) },
                                               replyTo: replyTo)
            let report = try await client.runJobs { name, done, total in Output.progress("uploading \(name)", done: done, total: total) }
            let failure = try client.database.read { db in try MessageLookup.message(id, db)?.failureReason }
            return (id, report, failure)
        }
        struct Sent: Encodable { let messageId: Int64; let sent: Int; let failed: Int; let deferred: Int; let failure: String? }
        Output(json: options.json).emit(
            Sent(messageId: messageId, sent: report.completed, failed: report.failed, deferred: report.deferred, failure: failure),
            text: report.failed > 0 ? "message \(messageId) failed: \(failure ?? "see `parley history`")"
                : report.deferred > 0 ? "message \(messageId) queued; the server is unreachable, it will be retried" : "sent (message \(messageId))")
        if report.failed > 0 {
            throw failure?.contains("blocked content hash") == true ? ParleyExit.blocked : ParleyExit.failure
        }
    }
}
