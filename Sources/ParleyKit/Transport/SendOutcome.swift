import Foundation
import ParleyAPI

/// The server's answer to a send.
public enum SendOutcome: Sendable, Equatable {
    /// Stored for every device, at this server time.
    case sent(serverTimestamp: UInt64)
    /// The device list was wrong: add sessions for `missing`, drop `extra`, then send again (409).
    case mismatchedDevices(MismatchedDevicesResponse)
    /// These devices were re-registered: rebuild their sessions, then send again (410).
    case staleDevices(StaleDevicesResponse)
}

extension SendOutcome {
    /// The outcome of a send the server answered with `status` and JSON `body`, however it travelled (HTTP or a socket
    /// response frame): 200, 409 and 410 are outcomes, any other status is ``ServerAPIError/rejected(status:body:)``.
    init(status: Int, body: Data) throws {
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            do {
                return try JSONDecoder().decode(type, from: body)
            } catch {
                throw ServerAPIError.malformedResponse("\(T.self): \(error)")
            }
        }
        switch status {
        case 200: self = .sent(serverTimestamp: try decode(SendMessagesResponse.self).serverTimestamp)
        case 409: self = .mismatchedDevices(try decode(MismatchedDevicesResponse.self))
        case 410: self = .staleDevices(try decode(StaleDevicesResponse.self))
        default: throw ServerAPIError.rejected(status: status, body: try? JSONDecoder().decode(APIErrorBody.self, from: body))
        }
    }
}
