import Foundation
import Hummingbird

extension RequestContext {
    /// The path parameter `name`, percent-decoded (`%2A` is `*`, as clients may encode any character of a path segment);
    /// a 400 when the route has no such parameter or it decodes to a control character (`%00` included).
    func pathParameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        let decoded = raw.removingPercentEncoding ?? raw
        guard !decoded.containsControlCharacter else { throw ServerError.badRequest("the path's \(name) holds a control character") }
        return decoded
    }
}
