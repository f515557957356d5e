import PostgresNIO

extension PostgresStore {
    public func createInvite(_ invite: StoredInvite) async throws {
        try await withConnection { connection in
            try await perform(
                """
                INSERT INTO invites (token_hash, uses_left, expires, created)
                VALUES (\(ByteBuffer(bytes: invite.tokenHash)), \(Int64(invite.usesLeft)), \(Self.bigint(invite.expires)), \(Self.bigint(invite.created)))
                """, on: connection)
        }
    }

    public func accountSummaries(after: String?, limit: Int) async throws -> [AccountSummary] {
        try await withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT a.id, a.username, a.created, a.disabled, (SELECT count(*) FROM devices d WHERE d.account_id = a.id)
                FROM accounts a WHERE a.id > \(after ?? "") ORDER BY a.id LIMIT \(Int64(max(limit, 0)))
                """, logger: logger)
            var summaries: [AccountSummary] = []
            for try await (id, username, created, disabled, devices) in rows.decode((String, String?, Int64, Bool, Int64).self) {
                summaries.append(
                    AccountSummary(
                        id: id, username: username, devices: Int(devices), created: UInt64(max(created, 0)),
                        disabled: disabled))
            }
            return summaries
        }
    }

    public func setAccountDisabled(id: String, disabled: Bool) async throws -> Bool {
        defer { accountChanged(id) }
        return try await withConnection { connection in
            try await count(
                """
                WITH updated AS (UPDATE accounts SET disabled = \(disabled) WHERE id = \(id) RETURNING 1) SELECT count(*) FROM updated
                """, on: connection) > 0
        }
    }

    public func deleteAccount(id: String) async throws -> Bool {
        defer { accountChanged(id) }
        return try await withConnection { connection in
            // Foreign keys cascade to devices (and from them to prekeys and mailboxes), link codes and the backup.
            try await count(
                """
                WITH deleted AS (DELETE FROM accounts WHERE id = \(id) RETURNING 1) SELECT count(*) FROM deleted
                """, on: connection) > 0
        }
    }
}
