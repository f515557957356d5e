import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyLocalService

/// The page's files, embedded in the binary at build time (SwiftPM's `embedInCode` resources): nothing is read from
/// disk or fetched from another origin. `/` is the page; `/assets/NAME` the rest.
enum WebAssets {
    /// Each asset's bytes and type, by name.
    static let files: [String: (bytes: [UInt8], type: String)] = [
        "index.html": (PackageResources.index_html, "text/html; charset=utf-8"),
        "app.css": (PackageResources.app_css, "text/css; charset=utf-8"),
        "app.js": (PackageResources.app_js, "text/javascript; charset=utf-8"),
        "api.js": (PackageResources.api_js, "text/javascript; charset=utf-8"),
        "dom.js": (PackageResources.dom_js, "text/javascript; charset=utf-8"),
        "voice.js": (PackageResources.voice_js, "text/javascript; charset=utf-8"),
        "icon.svg": (PackageResources.icon_svg, "image/svg+xml"),
    ]

    static func addRoutes(to router: Router<LocalRequestContext>) {
        router.get("/") { _, _ in response(for: "index.html") }
        router.get("/assets/:name") { _, context in
            guard let name = context.parameters.get("name"), files[name] != nil else {
                return JSONResponse.error("no such file", status: .notFound)
            }
            return response(for: name)
        }
    }

    static func response(for name: String) -> Response {
        let file = files[name]!
        return Response(
            status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
