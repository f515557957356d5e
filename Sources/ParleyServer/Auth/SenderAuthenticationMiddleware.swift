import Foundation
import HTTPTypes
import Hummingbird
import ParleyAPI

/// For send routes: device credentials when the request has an `Authorization` header, else the
/// `Unidentified-Access-Key` header's 16 bytes (whose match with the recipient ``SendService`` checks). A request
/// with neither, or with a malformed key, gets 401 and reaches no handler.
struct SenderAuthenticationMiddleware: RouterMiddleware {
    typealias Context = ParleyRequestContext
    let authenticator: DeviceAuthenticator

    /// The header's name, parsed once.
    static let accessKeyField = HTTPField.Name(APIRoutes.unidentifiedAccessKeyHeader)!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if request.headers[.authorization] != nil {
            context.authenticatedDevice = try await authenticator.authenticate(request)
        } else if let header = request.headers[Self.accessKeyField] {
            guard let key = UnidentifiedAccessKey.decode(header) else { throw ServerError.unauthorized }
            context.unidentifiedAccessKey = key
        } else {
            throw ServerError.unauthorized
        }
        return try await next(request, context)
    }
}
