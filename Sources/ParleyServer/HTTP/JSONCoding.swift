import Foundation
import Hummingbird
import ParleyAPI

/// Reads and writes JSON bodies with explicit size limits and ``ServerError``s for bad input.
enum JSONCoding {
    /// Collects at most `limit` bytes and decodes `T`; malformed JSON or wrong types are a 400 naming the problem.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try decode(type, from: Data(try await body(of: request, limit: limit)))
    }

    /// The request's body, at most `limit` bytes (413 beyond), as bytes (bodies that are not JSON: sealed sender v2).
    static func body(of request: Request, limit: Int) async throws -> [UInt8] {
        var request = request
        do {
            return Array(try await request.collectBody(upTo: limit).readableBytesView)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            throw ServerError.payloadTooLarge(limit)
        } catch {
            throw ServerError.badRequest("the request body could not be read")
        }
    }

    /// Decodes `T` from a body already read (a socket request's); malformed JSON or wrong types are a 400.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw ServerError.badRequest(describe(error))
        } catch {
            throw ServerError.badRequest("body is not JSON")
        }
    }

    /// JSON text of `value` (a socket response's body).
    static func text<T: Encodable>(_ value: T) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A JSON response.
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let data = try JSONEncoder().encode(value)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "missing field \(key.stringValue)"
        case .typeMismatch(_, let context): return "wrong type at \(path(context))"
        case .valueNotFound(_, let context): return "missing value at \(path(context))"
        case .dataCorrupted(let context):
            // A type's own rule (JSON that parses but is not a valid value) says what is wrong.
            if let rule = context.underlyingError as? APIValueError { return rule.message }
            return context.codingPath.isEmpty ? "body is not valid JSON" : "invalid value at \(path(context))"
        @unknown default: return "body does not decode"
        }
    }
}
