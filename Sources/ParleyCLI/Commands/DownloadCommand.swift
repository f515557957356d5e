import ArgumentParser
import Foundation
import ParleyKit

struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "download", abstract: "Download and decrypt a message's attachments.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The message: its local id (from `parley history`) or AUTHOR:TIMESTAMP (username or `me`, and the sender's timestamp).")
    var message: MessageReference
    @Option(
        help:
            "Export into this directory: a copy that stays when the message disappears or is deleted for everyone. Without it, the account's own downloads folder, whose files go with their messages."
    )
    var to: String?

    /// The sender chose the name: keep it only when it is one plain file name (no path, not `.` or `..`, no
    /// control characters, not hidden), else the caller falls back to `attachment-ID`.
    static func safeFileName(_ name: String?) -> String? {
        guard let name, !name.isEmpty, name.utf8.count <= 255, name != ".", name != "..", !name.hasPrefix("."),
            !name.contains("/"), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
        else { return nil }
        return name
    }

    func run() async throws {
        let output = Output(json: options.json)
        try await AccountContext.with(options) { client in
            let messageId = try await message.resolve(in: client)
            guard try client.message(id: messageId) != nil else {
                throw ParleyError.invalidArgument("there is no message \(messageId) (see `parley history` for ids)")
            }
            let attachments = try client.attachments(ofMessage: messageId)
            guard !attachments.isEmpty else { throw ParleyError.invalidArgument("message \(messageId) has no attachments") }
            let directory = to.map { URL(fileURLWithPath: $0) } ?? client.downloadDirectory
            // The account's own folder is as private as its database.
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: to == nil ? [.posixPermissions: 0o700] : nil)
            for attachment in attachments {
                let name = Self.safeFileName(attachment.fileName) ?? "attachment-\(attachment.id)"
                let destination = directory.appendingPathComponent(name)
                let total = Int64(attachment.size)
                try await client.downloadAttachment(attachment.id, to: destination) { done in
                    Output.progress(name, done: min(done, total), total: total)
                }
                struct Saved: Encodable {
                    let attachmentId: Int64
                    let path: String
                    let size: Int
                }
                output.emit(
                    Saved(attachmentId: attachment.id, path: destination.path, size: attachment.size), text: "saved \(destination.path)")
            }
        }
    }
}
