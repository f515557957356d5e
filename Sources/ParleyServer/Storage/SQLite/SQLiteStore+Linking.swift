import Foundation
internal import GRDB

extension SQLiteStore {
    public func storeLinkCode(hash: [UInt8], accountId: String, expires: UInt64) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO link_codes (code_hash, account_id, expires) VALUES (?, ?, ?)",
                arguments: [Data(hash), accountId, Int64(expires)])
        }
    }

    public func isLinkCodeValid(hash: [UInt8], now: UInt64) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM link_codes WHERE code_hash = ? AND expires > ?", arguments: [Data(hash), Int64(now)])
                ?? false
        }
    }

    public func deleteLinkCodes(expiredBefore now: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM link_codes WHERE expires <= ?", arguments: [Int64(now)])
            return db.changesCount
        }
    }

    public func linkDevice(
        codeHash: [UInt8], now: UInt64, maximumDevices: Int,
        makeDevice: @Sendable (_ accountId: String, _ deviceId: UInt32) -> StoredDevice
    ) async throws -> LinkOutcome {
        // A write that failed after it may have committed leaves the account unknown: every cached account is dropped.
        let outcome: LinkOutcome
        do {
            outcome = try await database.write { db -> LinkOutcome in
                guard
                    let accountId = try String.fetchOne(
                        db, sql: "SELECT account_id FROM link_codes WHERE code_hash = ? AND expires > ?",
                        arguments: [Data(codeHash), Int64(now)])
                else { return .invalidCode }
                let ids = try Int64.fetchAll(db, sql: "SELECT device_id FROM devices WHERE account_id = ?", arguments: [accountId])
                guard ids.count < maximumDevices, let deviceId = DeviceIdAllocation.lowestFree(taken: ids) else { return .tooManyDevices }
                try db.execute(sql: "DELETE FROM link_codes WHERE code_hash = ?", arguments: [Data(codeHash)])
                try Self.insert(makeDevice(accountId, deviceId), db)
                return .linked(accountId: accountId, deviceId: deviceId)
            }
        } catch {
            accounts.invalidateAll()
            throw error
        }
        if case .linked(let accountId, _) = outcome { accounts.invalidate(accountId) }
        return outcome
    }

    public func storeProvisioningMessage(address: String, body: [UInt8], expires: UInt64) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO provisioning_messages (address, body, expires) VALUES (?, ?, ?) ON CONFLICT (address) DO NOTHING",
                arguments: [address, Data(body), Int64(expires)])
            return db.changesCount > 0
        }
    }

    public func takeProvisioningMessage(address: String, now: UInt64) async throws -> [UInt8]? {
        // Polls mostly find nothing: answer those with a read, never queueing behind message writes.
        let present = try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM provisioning_messages WHERE address = ?", arguments: [address]) ?? false
        }
        guard present else { return nil }
        return try await database.write { db in
            guard
                let body = try Data.fetchOne(
                    db, sql: "SELECT body FROM provisioning_messages WHERE address = ? AND expires > ?", arguments: [address, Int64(now)])
            else { return nil }
            try db.execute(sql: "DELETE FROM provisioning_messages WHERE address = ?", arguments: [address])
            return Array(body)
        }
    }

    public func deleteProvisioningMessages(expiredBefore now: UInt64) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM provisioning_messages WHERE expires <= ?", arguments: [Int64(now)])
            return db.changesCount
        }
    }
}
