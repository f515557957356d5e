import Foundation
import Hummingbird

extension RequestContext {
    /// The path parameter `name`, percent-decoded (`%2A` is `*`, as clients may encode any character of a path segment);
    /// a 400 when the route has no such parameter.
    func pathParameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        return raw.removingPercentEncoding ?? raw
    }
}
