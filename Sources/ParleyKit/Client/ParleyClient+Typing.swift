import Foundation
import Logging
import ParleyAPI
import ParleyProtocol
import Synchronization

extension ParleyClient {
    /// Tells `accountId`'s devices that this account started or stopped typing: an ephemeral event the server
    /// relays to connected devices and never stores, encrypted end to end per device. When a message to `accountId`
    /// may go sealed, the copies are sealed sender and go without credentials (`PUT /v1/ephemeral/{account}` with its
    /// access key), so the server does not learn who types to whom; otherwise they go on `listen`'s socket when one is
    /// open, else on a short-lived one (which displaces another connection of this device), with this device named.
    /// Returns whether it went out (not when there is no session with `accountId` yet).
    @discardableResult
    public func sendTyping(_ action: TypingAction, to accountId: String) async throws -> Bool {
        let credentials = try credentials()
        guard let indicator = try await typingIndicator(MessageContent(typing: action), to: accountId, groupId: nil, as: credentials)
        else { return false }
        return try await deliver([indicator], as: credentials, toGroup: false) == [accountId]
    }

    /// Tells the other members of group `groupId` that this account started or stopped typing in it: the indicator
    /// (naming the group, inside the encryption) goes to each member as ``sendTyping(_:to:)`` sends it — sealed where a
    /// message to that member may go sealed, the rest together on one socket. Returns the members it went out to: not
    /// those with no session yet, those whose new identity waits for acceptance, those whose sealed indicator was
    /// refused or failed (after a full bucket, 429, the remaining sealed ones are not tried), nor — when the socket
    /// failed — those on it. (The server does not answer a socket's events: one it drops past its own limit still
    /// counts as sent.) A failure for some members does not stop the others.
    ///
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for a group this account does not know or has left.
    @discardableResult
    public func sendTyping(_ action: TypingAction, toGroup groupId: Data) async throws -> [String] {
        let credentials = try credentials()
        guard let group = try database.read({ db in try ConversationsTable.group(id: groupId, db) }) else {
            throw ParleyError.invalidArgument("no such group")
        }
        guard !group.left else { throw ParleyError.invalidArgument("this account is no longer a member of “\(group.title)”") }
        let content = MessageContent(typing: action, typingGroupId: groupId)
        var indicators: [TypingIndicator] = []
        for member in group.members where member != credentials.accountId {
            do {
                if let indicator = try await typingIndicator(content, to: member, groupId: groupId, as: credentials) {
                    indicators.append(indicator)
                }
            } catch ParleyError.untrustedIdentity {
                // A member whose safety number changed gets nothing until it is accepted, as for a message.
                continue
            }
        }
        return try await deliver(indicators, as: credentials, toGroup: true)
    }

    /// One recipient's typing indicator, ready to go: its events, and the access key when they are sealed.
    fileprivate struct TypingIndicator {
        let accountId: String
        let events: [EphemeralEvent]
        let accessKey: Data?
    }

    /// `content` encrypted for each of `accountId`'s devices and sealed when it may be, in as many events as the copies
    /// need; `nil` when there is no session with `accountId` yet.
    private func typingIndicator(
        _ content: MessageContent, to accountId: String, groupId: Data?,
        as credentials: DeviceCredentials
    ) async throws -> TypingIndicator? {
        var copies = try await delivery.ephemeralCopies(content, to: accountId, as: credentials)
        guard !copies.isEmpty else { return nil }
        let access = try await delivery.unidentified.access(to: accountId, as: credentials)
        if let access {
            copies = try delivery.unidentified.seal(
                copies, to: accountId, certificate: access.certificate, contentHint: .implicit,
                groupId: groupId)
        }
        // The server relays events of at most 4 KiB; copies made while a session is still in its prekey stage are
        // large, so they go in as many events as they need (each device picks its own copy).
        var events: [EphemeralEvent] = []
        var batch: [OutgoingMessage] = []
        for copy in copies {
            if !batch.isEmpty, try JSONEncoder().encode(batch + [copy]).count > EphemeralKind.maximumContentBytes {
                events.append(try typingEvent(batch, to: accountId))
                batch = []
            }
            batch.append(copy)
        }
        events.append(try typingEvent(batch, to: accountId))
        return TypingIndicator(accountId: accountId, events: events, accessKey: access?.key)
    }

    /// Sends `indicators`: sealed ones each without credentials, the others together on `listen`'s socket or one
    /// short-lived socket. Returns the recipients whose indicator went out, in order. A refused key (401) or a full
    /// bucket (429) leaves a recipient out; any other failure is thrown for one recipient, and for a group's members
    /// (`toGroup`) leaves out that member — or everyone on the socket — and goes on.
    private func deliver(_ indicators: [TypingIndicator], as credentials: DeviceCredentials, toGroup: Bool) async throws -> [String] {
        var delivered = Set<String>()
        var named: [TypingIndicator] = []
        var bucketFull = false
        for indicator in indicators {
            guard let accessKey = indicator.accessKey else {
                named.append(indicator)
                continue
            }
            // The address's bucket for sealed events is shared by every recipient: once full, the rest would be 429s.
            guard !bucketFull else { continue }
            do {
                for event in indicator.events { try await api.relaySealedEphemeral(event, to: indicator.accountId, accessKey: accessKey) }
                delivered.insert(indicator.accountId)
            } catch ParleyError.server(let error) where error.status == 401 || error.status == 429 {
                // A stale key (the contact rotated it: remembered, as a send would) or a bucket emptied: a typing
                // indicator is not worth another try.
                if error.status == 401 { try await delivery.unidentified.refuse(indicator.accountId) } else { bucketFull = true }
            } catch let error where toGroup && !(error is CancellationError) {
                logger.debug("a group typing indicator was not relayed", metadata: ["error": "\(error)"])
            }
        }
        if !named.isEmpty {
            do {
                try await send(named.flatMap(\.events), as: credentials)
                delivered.formUnion(named.map(\.accountId))
            } catch let error where toGroup && !(error is CancellationError) {
                logger.debug("group typing indicators did not go out on the socket", metadata: ["error": "\(error)"])
            }
        }
        return indicators.map(\.accountId).filter(delivered.contains)
    }

    /// Sends `events` on `listen`'s socket when it is open, else on a short-lived one.
    private func send(_ events: [EphemeralEvent], as credentials: DeviceCredentials) async throws {
        if let live = liveSocket.withLock({ $0 }) {
            for event in events { try await live.send(event) }
            return
        }
        try await MessageSocket(baseURL: api.baseURL, device: credentials, logger: logger).run { _, writer in
            for event in events { try await writer.send(event) }
            return false
        }
    }

    private func typingEvent(_ copies: [OutgoingMessage], to accountId: String) throws -> EphemeralEvent {
        let content = try JSONEncoder().encode(copies)
        guard content.count <= EphemeralKind.maximumContentBytes else {
            throw ParleyError.invalidArgument("a typing indicator for one device does not fit in an ephemeral event")
        }
        return EphemeralEvent(
            destinationAccountId: accountId, kind: EphemeralKind.typing, content: content.base64EncodedString(),
            timestamp: now())
    }
}
