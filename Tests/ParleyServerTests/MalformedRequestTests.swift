import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// Every malformed request gets a 4xx with a JSON `{code, message}` body — never a 500.
@Suite struct MalformedRequestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        let authenticated: Bool
        let expected: HTTPResponse.Status
        var testDescription: String { "\(method) \(path) \(body?.prefix(30) ?? "")" }
    }

    static let identity = Data([0x05] + [UInt8](repeating: 9, count: 32)).base64EncodedString()
    static let cases: [Case] = [
        Case(method: .post, path: APIRoutes.accounts, body: "not json", authenticated: false, expected: .badRequest),
        Case(method: .post, path: APIRoutes.accounts, body: "{}", authenticated: false, expected: .badRequest),
        Case(method: .post, path: APIRoutes.accounts, body: #"{"username": 5}"#, authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"ok_name","identityKey":"%%%","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"ok_name","identityKey":"\#(identity)","registrationId":0,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"a b","identityKey":"\#(identity)","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        // Usernames: 3–32 ASCII letters, digits, '.', '_' or '-' (no look-alikes, nothing a log or path treats specially).
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"bøb","identityKey":"\#(identity)","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"ab","identityKey":"\#(identity)","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"bob\u0000x","identityKey":"\#(identity)","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body:
                #"{"username":"\#(String(repeating: "a", count: 33))","identityKey":"\#(identity)","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"ok_name","identityKey":"AAAA","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts,
            body: #"{"username":"ok_name","identityKey":"\#(identity)","registrationId":1,"password":"AAAA"}"#,
            authenticated: false, expected: .badRequest),
        Case(
            method: .post, path: APIRoutes.accounts, body: String(repeating: "x", count: 40_000), authenticated: false,
            expected: .contentTooLarge),
        Case(method: .put, path: APIRoutes.keys, body: "[]", authenticated: true, expected: .badRequest),
        Case(
            method: .put, path: APIRoutes.keys, body: #"{"preKeys":[{"keyId":1,"publicKey":"!!"}]}"#, authenticated: true,
            expected: .badRequest),
        Case(
            method: .put, path: APIRoutes.keys, body: #"{"preKeys":[{"keyId":-1,"publicKey":"AA=="}]}"#, authenticated: true,
            expected: .badRequest),
        Case(
            method: .put, path: APIRoutes.keys, body: #"{"kemPreKeys":[{"keyId":1,"publicKey":"CAAA","signature":"AA=="}]}"#,
            authenticated: true, expected: .badRequest),
        Case(method: .put, path: APIRoutes.keys, body: "{}", authenticated: false, expected: .unauthorized),
        Case(method: .get, path: "/v1/keys/nobody/1", body: nil, authenticated: true, expected: .notFound),
        Case(method: .get, path: "/v1/keys/nobody/x", body: nil, authenticated: true, expected: .badRequest),
        Case(method: .get, path: "/v1/nothing-here", body: nil, authenticated: false, expected: .notFound),
        Case(method: .post, path: BackupRoutes.evaluate, body: "{}", authenticated: true, expected: .badRequest),
        Case(method: .put, path: BackupRoutes.backup, body: "[]", authenticated: true, expected: .badRequest),
        // The body is read before the username is looked up: a malformed one is a 400 for any name (no username oracle).
        Case(method: .post, path: BackupRoutes.evaluate(account: "nobody"), body: "not json", authenticated: false, expected: .badRequest),
        Case(method: .put, path: APIRoutes.deviceRegistration, body: #"{"registrationId":-1}"#, authenticated: true, expected: .badRequest),
        // NUL, which PostgreSQL refuses in text, never reaches the store: in a device name, in a path segment.
        Case(
            method: .post, path: APIRoutes.accounts,
            body:
                #"{"username":"ok_name","identityKey":"\#(identity)","registrationId":1,"password":"AAAAAAAAAAAAAAAAAAAAAA==","deviceName":"a\u0000b"}"#,
            authenticated: false, expected: .badRequest),
        Case(method: .get, path: "/v1/keys/%00/1", body: nil, authenticated: true, expected: .badRequest),
    ]

    /// Basic credentials whose user holds a NUL or is over 64 bytes: 401, as any wrong sign-in (on PostgreSQL the NUL
    /// reached the account lookup, which failed as a 500).
    @Test func credentialsWithAControlCharacterAreUnauthorized() async throws {
        try await ServerHarness().run { client in
            for user in ["\u{0}.1", "a\u{0}b.1", String(repeating: "é", count: 40) + ".1"] {
                let basic = "Basic " + Data("\(user):AAAAAAAAAAAAAAAAAAAAAA==".utf8).base64EncodedString()
                let headers: HTTPFields = [.authorization: basic, .contentType: "application/json"]
                let (status, body) = try await client.call(.get, "/v1/messages", headers: headers, raw: nil)
                #expect(status == .unauthorized, "\(user.debugDescription)")
                #expect(try JSONDecoder().decode(APIErrorBody.self, from: body).code == "unauthorized")
            }
        }
    }

    @Test(arguments: cases)
    func answersWithAJSONClientError(_ testCase: Case) async throws {
        try await ServerHarness().run { client in
            var headers: HTTPFields = [.contentType: "application/json"]
            if testCase.authenticated { headers = try await client.register("tester").headers }
            let (status, body) = try await client.call(testCase.method, testCase.path, headers: headers, raw: testCase.body)
            #expect(status == testCase.expected)
            let error = try JSONDecoder().decode(APIErrorBody.self, from: body)
            #expect(!error.code.isEmpty && !error.message.isEmpty)
        }
    }
}
