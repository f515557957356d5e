import Foundation
import PostgresNIO

extension PostgresStore {
    public func storeLinkCode(hash: [UInt8], accountId: String, expires: UInt64) async throws {
        try await withConnection { connection in
            try await perform(
                """
                INSERT INTO link_codes (code_hash, account_id, expires) VALUES (\(ByteBuffer(bytes: hash)), \(accountId), \(Self.bigint(expires)))
                """, on: connection)
        }
    }

    public func isLinkCodeValid(hash: [UInt8], now: UInt64) async throws -> Bool {
        try await withConnection { connection in
            try await exists(
                "SELECT EXISTS (SELECT 1 FROM link_codes WHERE code_hash = \(ByteBuffer(bytes: hash)) AND expires > \(Self.bigint(now)))",
                on: connection)
        }
    }

    public func deleteLinkCodes(expiredBefore now: UInt64) async throws -> Int {
        try await withConnection { connection in
            try await count(
                "WITH deleted AS (DELETE FROM link_codes WHERE expires <= \(Self.bigint(now)) RETURNING 1) SELECT count(*) FROM deleted",
                on: connection)
        }
    }

    public func storeProvisioningMessage(address: String, body: [UInt8], expires: UInt64) async throws -> Bool {
        try await withConnection { connection in
            try await count(
                """
                WITH inserted AS (
                    INSERT INTO provisioning_messages (address, body, expires)
                    VALUES (\(address), \(ByteBuffer(bytes: body)), \(Self.bigint(expires)))
                    ON CONFLICT (address) DO NOTHING RETURNING 1
                ) SELECT count(*) FROM inserted
                """, on: connection) > 0
        }
    }

    public func takeProvisioningMessage(address: String, now: UInt64) async throws -> [UInt8]? {
        try await withConnection { connection in
            // DELETE … RETURNING is atomic: two concurrent takers never both get the message.
            let rows = try await connection.query(
                """
                DELETE FROM provisioning_messages WHERE address = \(address) AND expires > \(Self.bigint(now)) RETURNING body
                """, logger: logger)
            for try await body in rows.decode(ByteBuffer.self) { return Array(buffer: body) }
            return nil
        }
    }

    public func deleteProvisioningMessages(expiredBefore now: UInt64) async throws -> Int {
        try await withConnection { connection in
            try await count(
                "WITH deleted AS (DELETE FROM provisioning_messages WHERE expires <= \(Self.bigint(now)) RETURNING 1) SELECT count(*) FROM deleted",
                on: connection)
        }
    }

    public func linkDevice(
        codeHash: [UInt8], now: UInt64, maximumDevices: Int,
        makeDevice: @Sendable (_ accountId: String, _ deviceId: UInt32) -> StoredDevice
    ) async throws -> LinkOutcome {
        let code = ByteBuffer(bytes: codeHash)
        // A transaction that failed after it may have committed leaves the account unknown: every cached account here is
        // dropped (the other processes' copies expire).
        let outcome: LinkOutcome
        do {
            outcome = try await transaction { connection -> LinkOutcome in
                // The code's row lock makes a second use of the same code wait, then find it gone.
                var accountIds: [String] = []
                let codes = try await connection.query(
                    "SELECT account_id FROM link_codes WHERE code_hash = \(code) AND expires > \(Self.bigint(now)) FOR UPDATE",
                    logger: logger)
                for try await accountId in codes.decode(String.self) { accountIds.append(accountId) }
                guard let accountId = accountIds.first else { return .invalidCode }
                // The account's row lock serializes links to one account, so two never pick the same device id.
                try await perform("SELECT 1 FROM accounts WHERE id = \(accountId) FOR UPDATE", on: connection)
                var deviceIds: [Int64] = []
                let rows = try await connection.query("SELECT device_id FROM devices WHERE account_id = \(accountId)", logger: logger)
                for try await deviceId in rows.decode(Int64.self) { deviceIds.append(deviceId) }
                guard deviceIds.count < maximumDevices, let deviceId = DeviceIdAllocation.lowestFree(taken: deviceIds) else {
                    return .tooManyDevices
                }
                try await perform("DELETE FROM link_codes WHERE code_hash = \(code)", on: connection)
                try await insert(makeDevice(accountId, deviceId), on: connection)
                return .linked(accountId: accountId, deviceId: deviceId)
            }
        } catch {
            accounts.invalidateAll()
            throw error
        }
        if case .linked(let accountId, _) = outcome { accountChanged(accountId) }
        return outcome
    }
}
