import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyLocalService

/// Runs ``WebGuard`` on every request, spends the one-time token (`/?token=…` → the session cookie, then a redirect to
/// `/`), and adds the security headers to every answer.
struct WebMiddleware<Context: RequestContext>: RouterMiddleware {
    let `guard`: WebGuard

    /// The Content-Security-Policy of every answer: this origin's own scripts, styles, images and media, nothing inline,
    /// no frames, no other origin.
    static var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; media-src 'self' blob:; "
            + "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let token = request.uri.path == "/" ? request.uri.queryParameters["token"].map(String.init) : nil
        var response: Response
        if let refusal = `guard`.refusal(of: request, exchangingToken: token != nil) {
            response = JSONResponse.error(refusal.1, status: refusal.0)
        } else if let token {
            if `guard`.session.exchange(token) != nil {
                response = Response(status: .seeOther, headers: [.location: "/", .setCookie: `guard`.session.setCookie])
            } else if `guard`.session.admits(cookieHeader: request.headers[.cookie]) {
                // Signed in already (a reload of the address): the page.
                response = Response(status: .seeOther, headers: [.location: "/"])
            } else {
                response = JSONResponse.error("this address was used already: start parley web again for a new one", status: .forbidden)
            }
        } else {
            do {
                response = try await next(request, context)
            } catch let error as HTTPError {
                response = JSONResponse.error(error.body ?? error.status.reasonPhrase, status: error.status)
            }
        }
        Self.secure(&response.headers)
        return response
    }

    /// Adds the security headers.
    static func secure(_ headers: inout HTTPFields) {
        // An answer with a stricter policy of its own (an attachment's sandbox) keeps it.
        if headers[HTTPField.Name("Content-Security-Policy")!] == nil {
            headers[HTTPField.Name("Content-Security-Policy")!] = contentSecurityPolicy
        }
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        headers[HTTPField.Name("Permissions-Policy")!] = "camera=(), geolocation=(), microphone=(self)"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }

}
