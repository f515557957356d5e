import Foundation

/// All session state with one remote device: the current session and up to
/// ``ProtocolLimits/maximumArchivedStates`` archived ones, newest first.
///
/// Archived states still decrypt late messages; a new session from the same
/// address archives the current one.
public struct SessionRecord: Sendable {
    var currentState: SessionState?
    var previousStates: [SessionState]

    /// An empty record (no session).
    public init() {
        currentState = nil
        previousStates = []
    }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/protobufError(_:)``, or ``SignalError/invalidArgument(_:)`` for more archived states than allowed.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let record: Parley_Storage_RecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "session record")
        guard record.previousSessions.count <= ProtocolLimits.maximumArchivedStates else {
            throw SignalError.invalidArgument("session record has \(record.previousSessions.count) archived states")
        }
        currentState = record.hasCurrentSession ? SessionState(structure: record.currentSession) : nil
        previousStates = record.previousSessions.map(SessionState.init(structure:))
    }

    /// Serializes the record.
    public func serialize() -> Data {
        var record = Parley_Storage_RecordStructure()
        if let currentState { record.currentSession = currentState.structure }
        record.previousSessions = previousStates.map(\.structure)
        return ProtobufCoding.encode(record)
    }

    /// Whether there is a current session that can send.
    public var hasCurrentState: Bool { currentState?.hasSenderChain ?? false }

    /// Whether there is a current session that can send at `now`: one whose first message was never answered
    /// expires after 30 days, as ``signalEncrypt(message:for:localAddress:sessionStore:identityStore:now:context:)``
    /// enforces.
    public func hasCurrentState(now: Date = Date()) -> Bool {
        guard let state = currentState, state.hasSenderChain else { return false }
        guard let pending = state.pendingPreKey else { return true }
        let nowMilliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        return nowMilliseconds <= pending.timestamp + SessionBuilder.maximumUnacknowledgedSessionAgeMilliseconds
    }

    /// The current session's version (3 or 4), if there is one.
    public var sessionVersion: UInt8? { currentState?.version }

    /// Whether the current session runs the SPQR (triple) ratchet.
    public var usesSPQR: Bool { currentState?.usesSPQR ?? false }

    /// For an SPQR session, the epoch the next outgoing `pq_ratchet` carries (1 at the start).
    public var spqrEpoch: UInt64? { currentState?.spqrEpoch }

    /// Moves the current session to the archive, so the next message sets up a new one.
    public mutating func archiveCurrentState() {
        guard let current = currentState else { return }
        previousStates.insert(current, at: 0)
        if previousStates.count > ProtocolLimits.maximumArchivedStates { previousStates.removeLast() }
        currentState = nil
    }

    /// The remote device's registration id.
    /// - Throws: ``SignalError/sessionNotFound(_:)`` without a current session.
    public func remoteRegistrationId() throws -> UInt32 { try current().remoteRegistrationId }

    /// This device's registration id as recorded in the session.
    /// - Throws: ``SignalError/sessionNotFound(_:)`` without a current session.
    public func localRegistrationId() throws -> UInt32 { try current().localRegistrationId }

    /// The remote identity key of the current session.
    /// - Throws: ``SignalError/sessionNotFound(_:)`` without a current session.
    public func remoteIdentityKey() throws -> IdentityKey { try current().remoteIdentityKey() }

    /// Whether the current session still sends pre-key messages (no reply decrypted yet).
    public var hasUnacknowledgedPreKeyMessage: Bool { currentState?.pendingPreKey != nil }

    /// Whether `key` is the current session's sending ratchet key.
    public func currentRatchetKeyMatches(_ key: PublicKey) throws -> Bool {
        try current().senderRatchetKey() == key
    }

    /// Makes `state` current and archives the previous current state.
    mutating func promote(_ state: SessionState) {
        archiveCurrentState()
        currentState = state
    }

    /// Makes archived state `index` current (after it decrypted a message), archiving the current one.
    mutating func promoteArchivedState(at index: Int, updated state: SessionState) {
        previousStates.remove(at: index)
        promote(state)
    }

    private func current() throws -> SessionState {
        guard let currentState else { throw SignalError.sessionNotFound("the record has no current session") }
        return currentState
    }
}
