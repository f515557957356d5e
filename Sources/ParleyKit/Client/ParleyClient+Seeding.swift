import Foundation
import ParleyProtocol

/// Filling a client database with history for benchmarks (`parley-client-bench`), through the same table owners the
/// pipelines use. Not API: only a tool that imports ParleyKit with `@_spi(Benchmarks)` sees it.
@_spi(Benchmarks)
extension ParleyClient {
    /// Makes this database an account registered as `username` (account id `accountId`, device 1) with a fresh
    /// identity, without asking any server: for measuring what a front door reads locally (the web page's first load,
    /// opening a long conversation). The server it names never saw the account; nothing sent from it goes anywhere.
    public func seedAccount(username: String, accountId: String) throws {
        let identity = IdentityKeyPair.generate()
        try database.write { [baseURL = api.baseURL] db in
            try LocalAccountTable.replace(
                serverURL: baseURL, username: username, accountId: accountId, deviceId: 1, password: DeviceCredentials.makePassword(),
                identityKeyPair: identity.serialize(), registrationId: UInt32.random(in: 1...16380),
                profileKey: ProfileKey.generate().bytes, db)
        }
    }

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
