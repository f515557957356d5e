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
    /// response frame): 200, 409 and 410 are outcomes, any other status is ``ParleyError/Server/rejected(status:body:)``.
    init(status: Int, body: Data) throws {
        switch status {
        case 200: self = .sent(serverTimestamp: try ParleyError.Server.decode(SendMessagesResponse.self, from: body).serverTimestamp)
        case 409: self = .mismatchedDevices(try ParleyError.Server.decode(MismatchedDevicesResponse.self, from: body))
        case 410: self = .staleDevices(try ParleyError.Server.decode(StaleDevicesResponse.self, from: body))
        default: throw ParleyError.server(.unexpected(status: status, body: body))
        }
    }
}
