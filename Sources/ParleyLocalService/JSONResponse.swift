import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The JSON answers of the local doors (`parley rest-api`, `parley web`): a value, or `{"error": "…"}`.
public enum JSONResponse {
    /// `value` as JSON (UTF-8) with `status`.
    public static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value))))
    }

    /// `{"error": message}` with `status`.
    public static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        (try? make(["error": message], status: status)) ?? Response(status: status)
    }
}
