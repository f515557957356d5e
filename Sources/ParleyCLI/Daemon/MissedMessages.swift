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
    static func replay(_ account: DaemonAccount, after cursor: Int64,
                       _ deliver: (DaemonEvent) async throws -> Void) async throws -> Int64 {
        var after = cursor
        while true {
            let missed = try account.client.receivedMessages(after: after)
            for message in missed {
                let params = try SignalCLIEnvelope.params(for: message, account: account.signalCLIName, client: account.client)
                try await deliver(DaemonEvent(account: account.signalCLIName, message: message, signalCLI: params))
                after = message.id
            }
            guard missed.count == 500 else { return after }
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
