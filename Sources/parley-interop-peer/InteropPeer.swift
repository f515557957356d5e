import Crypto
import Foundation
import ParleyProtocol

/// One Signal Protocol party driven by the interop line protocol.
final class InteropPeer {
    private var party: PartyState?
    private let context = NullContext()

    /// Answers one request line; returns the reply bytes and whether to exit.
    func handle(line: String) -> (Data, Bool) {
        var reply: [String: Any]
        var id: Any = NSNull()
        var quit = false
        do {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw PeerFailure.badRequest("request is not a JSON object")
            }
            id = object["id"] ?? NSNull()
            let request = PeerRequest(fields: object)
            guard let command = request.command else { throw PeerFailure.badRequest("cmd is missing") }
            quit = command == "quit"
            reply = try run(command, request)
            reply["ok"] = true
        } catch let failure as PeerFailure {
            reply = ["ok": false, "error": failure.name, "code": failure.code, "message": failure.message]
        } catch let error as SignalError {
            let failure = PeerFailure(error)
            reply = ["ok": false, "error": failure.name, "code": failure.code, "message": failure.message]
        } catch {
            reply = ["ok": false, "error": "unknown", "code": -1000, "message": "\(error)"]
        }
        if !(id is NSNull) { reply["id"] = id }
        let data = (try? JSONSerialization.data(withJSONObject: reply)) ?? Data(#"{"ok":false,"error":"unknown","code":-1000}"#.utf8)
        return (data, quit)
    }

    private func run(_ command: String, _ request: PeerRequest) throws -> [String: Any] {
        switch command {
        case "hello": return hello()
        case "quit": return [:]
        case "fingerprint": return try PeerFingerprints.fingerprint(request)
        case "fingerprint_compare": return try PeerFingerprints.compare(request)
        case "init":
            guard party == nil else { throw PeerFailure.alreadyInitialized }
            let state = try PartyState(request)
            party = state
            return state.description
        default:
            guard let party else {
                if PartyState.commands.contains(command) { throw PeerFailure.notInitialized }
                throw PeerFailure.unknownCommand(command)
            }
            return try party.run(command, request)
        }
    }

    private func hello() -> [String: Any] {
        [
            "implementation": "parley-interop-peer (ParleyProtocol, Swift)",
            "implementation_version": "0.1.0",
            "protocol_version": 4,
            "protocol_versions": [3, 4],
            "kyber_key_types": KEMKeyType.allCases.map(\.name),
            "spqr_versions": [1],
            "commands": ["hello", "init", "quit", "fingerprint", "fingerprint_compare"] + PartyState.commands,
        ]
    }
}
