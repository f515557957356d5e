import PostgresNIO

extension PostgresStore {
    public func storeSends(_ sends: [StoredSend]) async throws -> [Bool] {
        try await transaction { connection in
            var stored = Self.firstOfEachKey(sends)
            // The sends' idempotency records in one statement; a send whose record was there already stores nothing.
            // In key order: processes inserting overlapping keys then take their locks in the same order (no deadlock).
            let records = sends.indices.compactMap { index in stored[index] ? sends[index].idempotency : nil }
                .sorted { ($0.scope, $0.key) < ($1.scope, $1.key) }
            if !records.isEmpty {
                var inserted = Set<[String]>()
                let rows = try await connection.query(Self.recordQuery(records), logger: logger)
                for try await (scope, key) in rows.decode((String, String).self) { inserted.insert([scope, key]) }
                for (index, send) in sends.enumerated() {
                    if stored[index], let record = send.idempotency, !inserted.contains([record.scope, record.key]) {
                        stored[index] = false
                    }
                }
            }
            let envelopes = sends.indices.filter { stored[$0] }.flatMap { sends[$0].envelopes }
            try await insert(envelopes, on: connection)
            return stored
        }
    }

    public func idempotencyRecord(scope: String, key: String) async throws -> IdempotencyRecord? {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT fingerprint, server_timestamp FROM idempotency_records WHERE scope = \(scope) AND key = \(key)", logger: logger)
            for try await (fingerprint, serverTimestamp) in rows.decode((String, Int64).self) {
                return IdempotencyRecord(
                    scope: scope, key: key, fingerprint: fingerprint, serverTimestamp: UInt64(clamping: serverTimestamp))
            }
            return nil
        }
    }

    public func deleteIdempotencyRecords(olderThan serverTime: UInt64) async throws -> Int {
        try await withConnection { connection in
            try await count(
                """
                WITH deleted AS (DELETE FROM idempotency_records WHERE server_timestamp < \(Self.bigint(serverTime)) RETURNING 1)
                SELECT count(*) FROM deleted
                """, on: connection)
        }
    }

    /// Inserts `envelopes` and notifies the processes listening for their devices, inside the caller's transaction.
    private func insert(_ envelopes: [StoredEnvelope], on connection: PostgresConnection) async throws {
        guard !envelopes.isEmpty else { return }
        var recipients: [MailboxNotification] = []
        for envelope in envelopes {
            let recipient = MailboxNotification(instanceId: instanceId, accountId: envelope.accountId, deviceId: envelope.deviceId)
            if !recipients.contains(recipient) { recipients.append(recipient) }
        }
        // Multi-row inserts (a group commit's batch is one statement per 500 rows, not one round trip per row).
        for start in stride(from: 0, to: envelopes.count, by: 500) {
            try await perform(try Self.insertQuery(envelopes[start..<min(start + 500, envelopes.count)]), on: connection)
        }
        // Delivered when the transaction commits, so no listener looks before the envelopes are there; one statement
        // for every recipient device of the batch.
        let payloads = recipients.map(\.payload)
        try await perform(
            "SELECT pg_notify(\(MailboxNotification.channel), payload) FROM unnest(\(payloads)::text[]) AS payload", on: connection)
    }

    /// One multi-row insert of idempotency records that skips taken keys and returns the scope and key of each it stored.
    private static func recordQuery(_ records: [IdempotencyRecord]) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: records.count * 4)
        var rows: [String] = []
        for (row, record) in records.enumerated() {
            rows.append("($\(row * 4 + 1), $\(row * 4 + 2), $\(row * 4 + 3), $\(row * 4 + 4))")
            bindings.append(record.scope)
            bindings.append(record.key)
            bindings.append(record.fingerprint)
            bindings.append(bigint(record.serverTimestamp))
        }
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO idempotency_records (scope, key, fingerprint, server_timestamp) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT DO NOTHING RETURNING scope, key
                """, binds: bindings)
    }

    public func pendingEnvelopes(accountId: String, deviceId: UInt32, notBefore: UInt64, limit: Int) async throws -> [StoredEnvelope] {
        try await withConnection { connection in
            let rows = try await connection.query(
                """
                SELECT guid, account_id, device_id, source_account_id, source_device_id, type, content, timestamp, server_timestamp
                FROM mailbox WHERE account_id = \(accountId) AND device_id = \(Int64(deviceId)) AND server_timestamp >= \(Self.bigint(notBefore))
                ORDER BY server_timestamp, seq LIMIT \(Int64(max(limit, 0)))
                """, logger: logger)
            var envelopes: [StoredEnvelope] = []
            for try await (guid, accountId, deviceId, sourceAccountId, sourceDeviceId, type, content, timestamp, serverTimestamp)
                in rows.decode((String, String, Int64, String?, Int64?, Int64, ByteBuffer, Int64, Int64).self)
            {
                envelopes.append(
                    StoredEnvelope(
                        guid: guid, accountId: accountId, deviceId: UInt32(truncatingIfNeeded: deviceId), sourceAccountId: sourceAccountId,
                        sourceDeviceId: sourceDeviceId.map { UInt32(truncatingIfNeeded: $0) }, type: UInt8(truncatingIfNeeded: type),
                        content: Array(content.readableBytesView), timestamp: UInt64(clamping: timestamp),
                        serverTimestamp: UInt64(clamping: serverTimestamp)))
            }
            return envelopes
        }
    }

    public func deleteEnvelope(guid: String, accountId: String, deviceId: UInt32) async throws -> Bool {
        try await withConnection { connection in
            try await count(
                """
                WITH deleted AS (
                    DELETE FROM mailbox WHERE guid = \(guid) AND account_id = \(accountId) AND device_id = \(Int64(deviceId)) RETURNING 1)
                SELECT count(*) FROM deleted
                """, on: connection) > 0
        }
    }

    public func deleteEnvelopes(_ acknowledgements: [DeviceAcknowledgements]) async throws -> [Int] {
        guard !acknowledgements.isEmpty else { return [] }
        // One statement for every device: (guid, account, device) rows joined against the mailbox, so a guid deletes
        // only its own device's envelope; each deleted row is counted for the first element that acknowledged it.
        var guids: [String] = []
        var accounts: [String] = []
        var devices: [Int64] = []
        for device in acknowledgements {
            for guid in device.guids {
                guids.append(guid)
                accounts.append(device.accountId)
                devices.append(Int64(device.deviceId))
            }
        }
        return try await withConnection { connection in
            let rows = try await connection.query(
                """
                DELETE FROM mailbox m USING unnest(\(guids)::text[], \(accounts)::text[], \(devices)::bigint[])
                    AS a(guid, account_id, device_id)
                WHERE m.guid = a.guid AND m.account_id = a.account_id AND m.device_id = a.device_id
                RETURNING m.guid, m.account_id, m.device_id
                """, logger: logger)
            var deleted = Set<DeletedEnvelope>()
            for try await (guid, account, device) in rows.decode((String, String, Int64).self) {
                deleted.insert(DeletedEnvelope(guid: guid, accountId: account, deviceId: device))
            }
            return acknowledgements.map { device in
                device.guids.reduce(0) { count, guid in
                    let row = DeletedEnvelope(guid: guid, accountId: device.accountId, deviceId: Int64(device.deviceId))
                    return deleted.remove(row) == nil ? count : count + 1
                }
            }
        }
    }

    /// Drops every monthly partition that ends at or before `serverTime`, then deletes the older rows left in the
    /// partition holding `serverTime` and in the default partition. Returns only the rows deleted one by one: a
    /// dropped partition's rows are not counted.
    public func deleteEnvelopes(olderThan serverTime: UInt64) async throws -> Int {
        let cutoff = Self.bigint(serverTime)
        try await dropPartitions(endingBy: cutoff)
        return try await withConnection { connection in
            // Partition pruning limits this to the partition holding the cutoff and the default one.
            try await count(
                "WITH deleted AS (DELETE FROM mailbox WHERE server_timestamp < \(cutoff) RETURNING 1) SELECT count(*) FROM deleted",
                on: connection)
        }
    }

    public func mailboxDepth() async throws -> Int {
        try await withConnection { connection in try await count("SELECT count(*) FROM mailbox", on: connection) }
    }

    /// Calls `onChange` whenever another process sharing the database stores envelopes for a device, until the task is
    /// cancelled. Notifications this store sent itself are skipped; malformed ones are logged and skipped. When the
    /// listening connection fails, the store logs it and listens again a second later (notifications sent in between
    /// are lost, as PostgreSQL keeps none for absent listeners): `onListening` is called each time listening (re)starts,
    /// on the listening task, so the caller can make up for what went unheard (it must hand the work on, not do it).
    ///
    /// Holds one pooled connection while it runs.
    public func listenForMailboxChanges(
        onListening: @escaping @Sendable () -> Void = {},
        _ onChange: @escaping @Sendable (_ accountId: String, _ deviceId: UInt32) async -> Void
    ) async throws {
        while !Task.isCancelled {
            do {
                try await withConnection { connection in
                    try await connection.listen(on: MailboxNotification.channel) { notifications in
                        onListening()
                        for try await notification in notifications {
                            await handleMailboxNotification(notification.payload, onChange)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning("Listening for mailbox changes failed; retrying", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func handleMailboxNotification(
        _ payload: String, _ onChange: @Sendable (_ accountId: String, _ deviceId: UInt32) async -> Void
    ) async {
        guard let notification = MailboxNotification(payload: payload) else {
            logger.warning("Ignoring a malformed mailbox notification", metadata: ["payload": "\(payload)"])
            return
        }
        guard notification.instanceId != instanceId else { return }
        await onChange(notification.accountId, notification.deviceId)
    }

    /// `INSERT INTO mailbox … VALUES (…), (…), …` for `envelopes` (9 parameters a row).
    private static func insertQuery(_ envelopes: ArraySlice<StoredEnvelope>) throws -> PostgresQuery {
        var bindings = PostgresBindings(capacity: envelopes.count * 9)
        var rows: [String] = []
        rows.reserveCapacity(envelopes.count)
        for (row, envelope) in envelopes.enumerated() {
            let base = row * 9
            rows.append("(" + (1...9).map { "$\(base + $0)" }.joined(separator: ", ") + ")")
            bindings.append(envelope.guid)
            bindings.append(envelope.accountId)
            bindings.append(Int64(envelope.deviceId))
            bindings.append(envelope.sourceAccountId)
            bindings.append(envelope.sourceDeviceId.map { Int64($0) })
            bindings.append(Int16(envelope.type))
            bindings.append(ByteBuffer(bytes: envelope.content))
            bindings.append(bigint(envelope.timestamp))
            bindings.append(bigint(envelope.serverTimestamp))
        }
        return PostgresQuery(
            unsafeSQL: """
                INSERT INTO mailbox (guid, account_id, device_id, source_account_id, source_device_id, type, content,
                                     timestamp, server_timestamp) VALUES \(rows.joined(separator: ", "))
                """, binds: bindings)
    }
}

/// A row an acknowledgement delete returned.
private struct DeletedEnvelope: Hashable {
    let guid: String
    let accountId: String
    let deviceId: Int64
}
