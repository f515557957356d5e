import Foundation
import ParleyLocalService
import Testing

@testable import ParleyCompat

/// The JSON-RPC door (``DaemonSession``) on a ``RecordingClient``: a request's JSON in, the response's JSON out, and the
/// client's record of what the request asked of it.
struct CompatHarness {
    let client = RecordingClient()
    let accounts: DaemonAccounts
    let session: DaemonSession
    /// Where `data:` attachments are staged.
    let staging: URL

    init() throws {
        staging = FileManager.default.temporaryDirectory.appendingPathComponent("compat-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let peers = DaemonPeers()
        accounts = DaemonAccounts(
            all: [try DaemonAccount(name: "me", client: client, staging: StagedAttachments(folder: staging))], multiAccount: false,
            peers: peers)
        session = DaemonSession(accounts: accounts, transport: .lines) { _ in }
    }

    /// The REST routes on the same account.
    var routes: RestAPIRoutes {
        get throws { RestAPIRoutes(endpoint: try HostAndPort(parsing: "127.0.0.1:0"), accounts: accounts, peers: accounts.peers) }
    }

    /// The whole response to the JSON-RPC request `method` with `params` (a JSON object's text).
    func respond(_ method: String, _ params: String = "{}") async throws -> JSONValue {
        let request = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        let response = try #require(await session.respond(to: Data(request.utf8)))
        return try JSONDecoder().decode(JSONValue.self, from: response)
    }

    /// The result of `method` with `params`; fails the test with the error when there is one.
    func result(_ method: String, _ params: String = "{}", sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let response = try await respond(method, params)
        guard case .object(let fields) = response, let result = fields["result"] else {
            Issue.record("expected a result, got \(response)", sourceLocation: sourceLocation)
            return .null
        }
        return result
    }

    /// The error code and message of `method` with `params`; fails the test when it succeeds.
    func error(
        _ method: String, _ params: String = "{}", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (code: Int64, message: String, data: JSONValue) {
        let response = try await respond(method, params)
        guard case .object(let fields) = response, case .object(let error)? = fields["error"] else {
            Issue.record("expected an error, got \(response)", sourceLocation: sourceLocation)
            return (0, "", .null)
        }
        return (error["code"]?.integer ?? 0, error["message"]?.string ?? "", error["data"] ?? .null)
    }
}

/// `text` (JSON) as a ``JSONValue``, for comparing answers.
func json(_ text: String) -> JSONValue {
    (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string("unparseable test JSON: \(text)")
}

/// signal-cli's address of a person the recording client knows.
func address(_ accountId: String, _ username: String) -> String {
    let number = username.allSatisfy(\.isNumber) ? #""+\#(username)""# : "null"
    return #"{"number":\#(number),"uuid":"\#(accountId)","username":"\#(username)"}"#
}
