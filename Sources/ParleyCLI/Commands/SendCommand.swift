import ArgumentParser
import Foundation
import ParleyKit

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Send a message (queued durably, then sent).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "Recipient: a username or an account id (with --group: the text).") var recipient: String
    @Argument(help: "The text; - reads it from standard input.") var text: String = ""
    @Option(help: "Send to this group (its id from `parley group list`); the text is then the first argument.") var group: String?
    @Option(name: .customLong("attach"), help: "A file to attach (repeatable).") var attachments: [String] = []
    @Option(help: "The message this replies to: its local id or AUTHOR:TIMESTAMP.") var replyTo: MessageReference?
    @Flag(help: "Send the (single) attachment as a voice note; for WAV files its duration and waveform are measured.")
    var voice = false
    @Option(help: "The attachment's duration in milliseconds (for audio other than WAV).") var durationMs: UInt32?
    @Option(help: "The attachment's waveform: up to 100 comma-separated levels in 0…1 (for audio other than WAV).")
    var waveform: String?
    @Option(name: .customLong("type"), help: "The attachment's MIME type (default: from its extension).") var contentType: String?
    @Option(name: .customLong("mention"), help: "Mention this person (a username or account id) where the text says @NAME (repeatable).")
    var mentioned: [String] = []

    /// The attachments with their metadata: measured from WAV files for voice notes, otherwise as the flags say.
    func files() throws -> [OutgoingAttachment] {
        let levels =
            try waveform.map { text in
                try text.split(separator: ",").map { item -> Float in
                    guard let level = Float(item.trimmingCharacters(in: .whitespaces)) else {
                        throw ValidationError("waveform levels are numbers in 0…1")
                    }
                    return level
                }
            } ?? []
        if voice || durationMs != nil || !levels.isEmpty || contentType != nil {
            guard attachments.count == 1 else {
                throw ValidationError("--voice, --duration-ms, --waveform and --type describe exactly one --attach")
            }
        }
        return try attachments.map { path in
            let file = URL(fileURLWithPath: path)
            if voice, durationMs == nil, levels.isEmpty, file.pathExtension.lowercased() == "wav" {
                return try OutgoingAttachment.voiceNote(wav: file)
            }
            return try OutgoingAttachment(
                file: file, contentType: contentType, voiceNote: voice, durationMilliseconds: durationMs,
                waveform: levels)
        }
    }

    /// The message's text: the argument, or standard input for `-`.
    func body() -> String {
        let given = group != nil && text.isEmpty ? recipient : text
        guard given == "-" else { return given }
        let read = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        return read.hasSuffix("\n") ? String(read.dropLast()) : read
    }

    func run() async throws {
        let body = body()
        if body.utf8.count > MessageDraft.inlineTextLimit {
            FileHandle.standardError.write(
                Data(
                    "parley: the text is over \(MessageDraft.inlineTextLimit / 1024) KiB: it travels whole as a text attachment, with its start inline\n"
                        .utf8))
        }
        let sent = try await AccountContext.with(options) { client -> SendReport in
            let draft = MessageDraft(
                body: body, attachments: try files(), replyTo: try await replyTo?.resolve(in: client),
                mentions: try await MentionTags.mentions(of: mentioned, in: body, client: client))
            let to: Recipient = try group.map { .group(try GroupCommand.id($0)) } ?? .person(recipient)
            // Everything queued goes now, also what waits out a backoff: the server may be back.
            return try await client.send(draft, to: to, attempt: .everything) { name, done, total in
                Output.progress("uploading \(name)", done: done, total: total)
            }
        }
        let messageId = sent.messageId ?? 0
        let report = sent.jobs
        let failure = sent.failure
        struct Sent: Encodable {
            let messageId: Int64
            let sent: Int
            let failed: Int
            let deferred: Int
            let failure: String?
        }
        Output(json: options.json).emit(
            Sent(messageId: messageId, sent: report.completed, failed: report.failed, deferred: report.deferred, failure: failure?.reason),
            text: report.failed > 0
                ? "message \(messageId) failed: \(failure?.reason ?? "see `parley history`")"
                : report.deferred > 0
                    ? "message \(messageId) queued; the server is unreachable, it will be retried" : "sent (message \(messageId))")
        if report.failed > 0 {
            if case .blockedContent = failure { throw ParleyExit.blocked }
            throw ParleyExit.failure
        }
    }
}
