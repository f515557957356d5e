import Foundation
import ParleyAPI

/// The server's answer to a sealed sender v2 (multi-recipient) send.
public enum MultiRecipientSendOutcome: Sendable, Equatable {
    /// Stored for every device, at this server time.
    case sent(serverTimestamp: UInt64)
    /// Some recipients' device lists were wrong: repair each and send again (409).
    case mismatchedDevices([AccountMismatchedDevices])
    /// Some recipients' devices were re-registered: rebuild their sessions and send again (410).
    case staleDevices([AccountStaleDevices])
    /// These recipients do not exist (404).
    case unknownRecipients([String])
}

extension MultiRecipientSendOutcome {
    /// The outcome the server answered with `status` and JSON `body`; any status but 200, 404, 409 and 410 is
    /// ``ParleyError/Server/rejected(status:body:)``.
    init(status: Int, body: Data) throws {
        switch status {
        case 200: self = .sent(serverTimestamp: try ParleyError.Server.decode(MultiRecipientSendResponse.self, from: body).serverTimestamp)
        case 404: self = .unknownRecipients(try ParleyError.Server.decode(UnknownRecipientsResponse.self, from: body).uuids404)
        case 409: self = .mismatchedDevices(try ParleyError.Server.decode([AccountMismatchedDevices].self, from: body))
        case 410: self = .staleDevices(try ParleyError.Server.decode([AccountStaleDevices].self, from: body))
        default: throw ParleyError.server(.unexpected(status: status, body: body))
        }
    }
}
