import Foundation
import ParleyKit
import Synchronization

/// What a client that was away missed: the messages an account stored after a cursor (a local message id, as the
/// `message.id` of a line notification, the `id:` of a server-sent event or the `?since=` of a socket), read from the
/// encrypted database — whoever was listening meanwhile — and handed over oldest first. All three doors (line
/// transports' `subscribeReceive`, `/api/v1/events`, the REST API's `/v1/receive/{number}`) catch up through here.
enum MissedMessages {
    /// Hands every message `account` stored after `cursor` to `deliver`, oldest first, in pages of 500; returns the id
    /// of the last one (`cursor` when there was none).
    @discardableResult
    static func replay(
        _ account: DaemonAccount, after cursor: Int64,
        _ deliver: (DaemonEvent) async throws -> Void
    ) async throws -> Int64 {
        var after = cursor
        while true {
            let missed = try account.client.receivedMessages(after: after, limit: 500)
            for message in missed {
                let params = try SignalCLIEnvelope.params(for: message, account: account.signalCLIName, client: account.client)
                try await deliver(DaemonEvent(account: account.signalCLIName, message: message, signalCLI: params))
                after = message.id
            }
            guard missed.count == 500 else { return after }
        }
    }
}

extension MissedMessages {
    /// One streaming client's feed (server-sent events, the REST API's socket): the messages `account` stored after
    /// `cursor` (when both are given), then every live event — of `account`, or of every account when `nil` — as
    /// `frame` writes it, each message once and in order, until `write` throws or the task is cancelled. Live events
    /// are buffered from before the catch-up read, so nothing falls between the two. A client that falls 10,000 events
    /// behind is not skipped past them: its feed ends after the ones buffered, and it catches up from the database when
    /// it comes back with the last id it saw. With `keepAlive`, its text is written every `interval` as well.
    static func feed(
        from peers: DaemonPeers, of account: DaemonAccount?, after cursor: Int64?,
        keepAlive: (interval: Duration, text: String)? = nil, frame: @escaping @Sendable (DaemonEvent) -> String,
        write: (String) async throws -> Void
    ) async throws {
        let (chunks, continuation) = AsyncStream<(id: Int64, text: String)>.makeStream(bufferingPolicy: .bufferingOldest(10_000))
        let id = peers.add { event in
            guard account == nil || event.account == account?.signalCLIName else { return }
            if case .dropped = continuation.yield((event.message?.id ?? 0, frame(event))) { continuation.finish() }
        }
        let beat = keepAlive.map { keepAlive in
            Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: keepAlive.interval)
                    continuation.yield((0, keepAlive.text))
                }
            }
        }
        defer {
            peers.remove(id)
            beat?.cancel()
            continuation.finish()
        }
        var sent = cursor ?? 0
        if let cursor, let account {
            sent = try await replay(account, after: cursor) { event in try await write(frame(event)) }
        }
        // Ids are per account: only one account's feed can skip what the catch-up already wrote.
        for await chunk in chunks where account == nil || chunk.id == 0 || chunk.id > sent {
            try await write(chunk.text)
            if chunk.id > 0 { sent = chunk.id }
        }
    }
}

/// The stored messages one line-transport client has been told of, per account, so a catch-up running beside live
/// notifications tells it of each message once. Bounded: the oldest ids are forgotten past 50,000 per account.
final class ToldMessages: Sendable {
    private let told = Mutex<[String: Set<Int64>]>([:])

    /// Records message `id` of `account`; whether it was new (the client has not been told of it yet).
    func record(_ id: Int64, of account: String) -> Bool {
        told.withLock { told in
            guard told[account, default: []].insert(id).inserted else { return false }
            if let ids = told[account], ids.count > 50_000, let newest = ids.max() {
                told[account] = ids.filter { $0 > newest - 25_000 }
            }
            return true
        }
    }
}
