import HTTPTypes
import Hummingbird
import ParleyLocalService

/// The checks every request to `parley web` passes before a route sees it:
/// - **Host**: the address it was served on, `localhost` or a loopback address, with the bound port: a page on another
///   site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
/// - **Origin** (sent by browsers with every cross-origin request and every POST): this page's own origin only, and
///   `Sec-Fetch-Site`, when the browser sends it, `same-origin` or `none`: no other site's page drives this one.
/// - **The session**: the cookie ``WebSession`` set, on every request but the one exchanging the one-time token.
struct WebGuard: Sendable {
    /// The host names (without port) the page is served under.
    let hosts: Set<String>
    /// The port it was bound to, once it is known.
    let port: @Sendable () -> Int?
    let session: WebSession

    /// Why `request` is refused, or `nil` when it may go on. `exchangingToken`: the request that spends the one-time token
    /// needs no cookie.
    func refusal(of request: Request, exchangingToken: Bool) -> (HTTPResponse.Status, String)? {
        guard let authority = request.head.authority, let (host, port) = HostAndPort.split(authority: authority),
            hosts.contains(host.lowercased()), (port ?? 80) == self.port()
        else {
            return (.misdirectedRequest, "this page is served only at the address parley web printed")
        }
        if let origin = request.headers[.origin], origin != "http://\(authority)" {
            return (.forbidden, "requests from other sites are refused")
        }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
            return (.forbidden, "requests from other sites are refused")
        }
        if !exchangingToken, !session.admits(cookieHeader: request.headers[.cookie]) {
            return (.forbidden, "open the address parley web printed (it signs this browser in once)")
        }
        return nil
    }

}
