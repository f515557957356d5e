import HTTPTypes
import Hummingbird
import NIOCore
import ParleyLocalService
import Testing

@testable import ParleyWeb

/// `parley web`'s sign-in: a one-time token for one browser, then a session cookie; and the checks on every request.
@Suite struct WebSessionTests {
    @Test func theTokenSignsInOnce() throws {
        let session = WebSession()
        let token = try #require(session.oneTimeToken)
        #expect(token.count >= 43)
        #expect(session.exchange("x" + token.dropFirst()) == nil)
        #expect(session.oneTimeToken == token)  // a wrong guess does not spend it
        let secret = try #require(session.exchange(token))
        #expect(session.oneTimeToken == nil)
        #expect(session.exchange(token) == nil)
        #expect(session.setCookie == "parley_session=\(secret); Path=/; HttpOnly; SameSite=Strict")
        #expect(session.admits(cookieHeader: "theme=dark; parley_session=\(secret)"))
        #expect(!session.admits(cookieHeader: "parley_session=\(token)"))
        #expect(!session.admits(cookieHeader: nil))
        #expect(!session.admits(cookieHeader: "parley_session="))
    }

    @Test func twoSessionsShareNothing() {
        let first = WebSession()
        let second = WebSession()
        #expect(first.oneTimeToken != second.oneTimeToken)
        #expect(WebSession.constantTimeEqual("abc", "abc"))
        #expect(!WebSession.constantTimeEqual("abc", "abd"))
        #expect(!WebSession.constantTimeEqual("abc", "abcd"))
    }

    private func request(_ authority: String?, _ fields: HTTPFields = [:], path: String = "/api/state") -> Request {
        Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: path, headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
    }

    @Test func theGuardChecksHostOriginAndSession() throws {
        let session = WebSession()
        let token = try #require(session.oneTimeToken)
        let secret = try #require(session.exchange(token))
        let guardian = WebGuard(hosts: ["127.0.0.1", "localhost", "::1"], port: { 4321 }, session: session)
        let cookie: HTTPFields = [.cookie: "parley_session=\(secret)"]
        #expect(guardian.refusal(of: request("127.0.0.1:4321", cookie), exchangingToken: false) == nil)
        #expect(guardian.refusal(of: request("localhost:4321", cookie), exchangingToken: false) == nil)
        #expect(guardian.refusal(of: request("LOCALHOST:4321", cookie), exchangingToken: false) == nil)
        #expect(guardian.refusal(of: request("[::1]:4321", cookie), exchangingToken: false) == nil)
        // DNS rebinding: another name, or another port.
        #expect(guardian.refusal(of: request("evil.example:4321", cookie), exchangingToken: false)?.0 == .misdirectedRequest)
        #expect(guardian.refusal(of: request("127.0.0.1:80", cookie), exchangingToken: false)?.0 == .misdirectedRequest)
        #expect(guardian.refusal(of: request(nil, cookie), exchangingToken: false)?.0 == .misdirectedRequest)
        // Another site's page.
        var foreign = cookie
        foreign[.origin] = "http://evil.example"
        #expect(guardian.refusal(of: request("127.0.0.1:4321", foreign), exchangingToken: false)?.0 == .forbidden)
        var sameOrigin = cookie
        sameOrigin[.origin] = "http://127.0.0.1:4321"
        #expect(guardian.refusal(of: request("127.0.0.1:4321", sameOrigin), exchangingToken: false) == nil)
        var crossSite = cookie
        crossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
        #expect(guardian.refusal(of: request("127.0.0.1:4321", crossSite), exchangingToken: false)?.0 == .forbidden)
        // No session: refused, but for the request spending the token.
        #expect(guardian.refusal(of: request("127.0.0.1:4321"), exchangingToken: false)?.0 == .forbidden)
        #expect(guardian.refusal(of: request("127.0.0.1:4321", path: "/?token=x"), exchangingToken: true) == nil)
    }

    @Test func authoritiesSplitIntoHostAndPort() {
        #expect(HostAndPort.split(authority: "127.0.0.1:8080")! == ("127.0.0.1", 8080))
        #expect(HostAndPort.split(authority: "LOCALHOST")! == ("LOCALHOST", nil))
        #expect(HostAndPort.split(authority: "[::1]:9")! == ("::1", 9))
        #expect(HostAndPort.split(authority: "[::1]")! == ("::1", nil))
        #expect(HostAndPort.split(authority: "a:b:c") == nil)
        #expect(HostAndPort.split(authority: "[::1") == nil)
        #expect(HostAndPort.split(authority: "host:port") == nil)
        #expect(HostAndPort.split(authority: "[::1]x") == nil)
    }

    @Test func thePolicyAllowsNothingInlineOrForeign() {
        let policy = WebMiddleware<BasicRequestContext>.contentSecurityPolicy
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!policy.contains("unsafe"))
        #expect(!policy.contains("http"))
    }
}
