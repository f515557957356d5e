import ArgumentParser
import Foundation
import ParleyKit

/// A message as a command names it: its local id (`12`, from `parley history`), or `AUTHOR:TIMESTAMP` — the author's
/// username or account id (`me` for this account) and the sender's timestamp (`timestamp` in JSON) — which names the
/// same message on every device of every participant.
struct MessageReference: ExpressibleByArgument, Sendable {
    /// The local id, when given as one.
    let localId: Int64?
    /// The author and timestamp, when given so.
    let author: String?
    let timestamp: UInt64?

    init?(argument: String) {
        if let id = Int64(argument), id > 0 {
            (localId, author, timestamp) = (id, nil, nil)
            return
        }
        guard let colon = argument.lastIndex(of: ":"), let timestamp = UInt64(argument[argument.index(after: colon)...]),
            colon > argument.startIndex
        else { return nil }
        (localId, author, self.timestamp) = (nil, String(argument[..<colon]), timestamp)
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// The message's local id on this device.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when this device has no such message.
    func resolve(in client: ParleyClient) async throws -> Int64 {
        if let localId { return localId }
        guard let author, let timestamp else { throw ParleyError.invalidArgument("a message is named by its id or AUTHOR:TIMESTAMP") }
        let accountId = author == "me" ? try client.credentials().accountId : try await client.resolve(author)
        guard let message = try client.message(author: accountId, timestamp: timestamp) else {
            throw ParleyError.invalidArgument("this device has no message from \(author) sent at \(timestamp)")
        }
        return message.id
    }
}
