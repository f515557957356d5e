import Foundation
import ParleyAPI
import ParleyProtocol

/// Server-stored groups' first client step: the account's daily group auth credentials, each checked to be issued by
/// the server's zkgroup keys for this account and day before it is kept.
extension AccountManager {
    /// The server's zkgroup public params: those kept from the first time they were learned, or, the first time, the
    /// server's answer (then kept). A server that later answers other params cannot make this device accept credentials
    /// made with other keys.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when the server's answer is not public params.
    public func zkGroupPublicParams() async throws -> ServerPublicParams {
        if let kept = try database.read({ try SettingsTable.value(SettingsTable.zkGroupPublicParams, $0) }),
            let bytes = Data(base64Encoded: kept)
        {
            return try ServerPublicParams(contents: bytes)
        }
        let response = try await api.zkGroupPublicParams()
        guard let bytes = Data(base64Encoded: response.serverPublicParams), let params = try? ServerPublicParams(contents: bytes) else {
            throw ParleyError.invalidArgument("the server's zkgroup public params are not ServerPublicParams")
        }
        try database.write { try SettingsTable.set(SettingsTable.zkGroupPublicParams, to: response.serverPublicParams, $0) }
        return params
    }

    /// The account's group auth credentials for today and the next `days` days (at most 7), by redemption day (seconds
    /// since 1970). Each is received with ``ClientZkAuthOperations/receiveAuthCredentialWithoutPni(aci:salt:redemptionTime:authCredentialResponse:)``,
    /// which checks its issuance proof against ``zkGroupPublicParams()`` for this account's ACI and that day.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` when the server answers a day outside the range, a day twice, or a
    ///   credential that does not check out.
    public func groupAuthCredentials(days: Int = 7, now: Date = Date()) async throws -> [UInt64: AuthCredentialWithPni] {
        guard (0...7).contains(days) else { throw ParleyError.invalidArgument("group credentials come for today and up to 7 more days") }
        let params = try await zkGroupPublicParams()
        let credentials = try database.read { try LocalAccount.credentials($0) }
        guard let uuid = UUID(uuidString: credentials.accountId) else {
            throw ParleyError.invalidArgument("the account id is not a UUID")
        }
        let day: UInt64 = 86_400
        let today = UInt64(max(0, now.timeIntervalSince1970)) / day * day
        let end = today + UInt64(days) * day
        let response = try await api.groupAuthCredentials(from: today, through: end, as: credentials)
        guard let salt = Data(base64Encoded: response.authCredentialSalt) else {
            throw ParleyError.invalidArgument("the server's credential salt is not base64")
        }
        let operations = ClientZkAuthOperations(serverPublicParams: params)
        let aci = Aci(fromUUID: uuid)
        var received: [UInt64: AuthCredentialWithPni] = [:]
        for entry in response.credentials {
            guard (today...end).contains(entry.redemptionTime), received[entry.redemptionTime] == nil else {
                throw ParleyError.invalidArgument("the server answered a group credential for a day not asked for")
            }
            do {
                guard let bytes = Data(base64Encoded: entry.credential) else { throw SignalError.invalidType("not base64") }
                received[entry.redemptionTime] = try operations.receiveAuthCredentialWithoutPni(
                    aci: aci, salt: salt, redemptionTime: entry.redemptionTime,
                    authCredentialResponse: AuthCredentialWithPniResponse(contents: bytes))
            } catch {
                throw ParleyError.invalidArgument("the server's group credential for \(entry.redemptionTime) does not check out: \(error)")
            }
        }
        return received
    }
}
