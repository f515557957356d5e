import Foundation

/// The sender-key states of one sender in one group (distribution id), newest first,
/// at most ``ProtocolLimits/maximumSenderKeyStates``.
public struct SenderKeyRecord: Sendable {
    var states: [SenderKeyState]

    init(states: [SenderKeyState]) { self.states = states }

    /// Parses the form made by ``serialize()``.
    /// - Throws: ``SignalError/protobufError(_:)``, or ``SignalError/invalidArgument(_:)`` for too many states.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let record: Parley_Storage_SenderKeyRecordStructure = try ProtobufCoding.decode(bytes.byteArray, what: "sender key record")
        guard record.senderKeyStates.count <= ProtocolLimits.maximumSenderKeyStates else {
            throw SignalError.invalidArgument("sender key record has \(record.senderKeyStates.count) states")
        }
        states = record.senderKeyStates.map(SenderKeyState.init(structure:))
    }

    /// Serializes the record.
    public func serialize() -> Data {
        var record = Parley_Storage_SenderKeyRecordStructure()
        record.senderKeyStates = states.map(\.structure)
        return ProtobufCoding.encode(record)
    }

    func stateIndex(keyId: UInt32) -> Int? { states.firstIndex { $0.keyId == keyId } }

    /// Adds a state in front and trims old ones. A state with the same key id and signing key is kept as it is
    /// (moved to the front), so a repeated distribution message cannot rewind the chain and replay old messages;
    /// a state with the same key id but another signing key is replaced.
    mutating func add(_ state: SenderKeyState) {
        let signingKey = state.structure.senderSigningKey.public
        if let index = states.firstIndex(where: { $0.keyId == state.keyId && $0.structure.senderSigningKey.public == signingKey }) {
            states.insert(states.remove(at: index), at: 0)
            return
        }
        states.removeAll { $0.keyId == state.keyId }
        states.insert(state, at: 0)
        if states.count > ProtocolLimits.maximumSenderKeyStates { states.removeLast(states.count - ProtocolLimits.maximumSenderKeyStates) }
    }
}
