import Foundation

/// Filling a client database with history for benchmarks (`parley-client-bench`), through the same table owners the
/// pipelines use. Not API: only a tool that imports ParleyKit with `@_spi(Benchmarks)` sees it.
@_spi(Benchmarks)
extension ParleyClient {
    /// Stores `count` messages (alternately sent and received, message `index` reading `body(index)`; the last `unread`
    /// received ones unread) in the 1:1 conversation with `accountId`, named `username`, timestamped from `firstTimestamp`
    /// on; returns the conversation's id. Written in transactions of 10,000 messages.
    @discardableResult
    public func seedConversation(
        with accountId: String, username: String, messages count: Int, firstTimestamp: UInt64,
        unread: Int = 3, body: (Int) -> String
    ) throws -> Int64 {
        let conversationId = try database.write { db in
            try ConversationsTable.oneToOne(with: accountId, username: username, now: firstTimestamp, db)
        }
        var written = 0
        while written < count {
            let batch = min(10_000, count - written)
            try database.write { db in
                for index in written..<(written + batch) {
                    let outgoing = index % 2 == 0
                    guard
                        let id = try MessagesTable.insert(
                            NewMessage(
                                conversationId: conversationId, outgoing: outgoing, authorAccountId: outgoing ? "me" : accountId,
                                authorDeviceId: 1,
                                timestamp: firstTimestamp + UInt64(index), body: body(index),
                                status: outgoing ? .delivered : .received, replyToId: nil), db)
                    else { continue }
                    if !outgoing, index < count - unread { try MessagesTable.markRead(id, db) }
                }
            }
            written += batch
        }
        return conversationId
    }
}
