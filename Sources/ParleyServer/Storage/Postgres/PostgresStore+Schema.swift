import PostgresNIO

extension PostgresStore {
    /// Serializes migrations across processes starting at once (`pg_advisory_xact_lock` key, "Parley" and 1).
    static let migrationLock: Int64 = 0x5061_726C_6579_0001
    /// Serializes creating and dropping mailbox partitions across processes ("Parley" and 2).
    static let partitionLock: Int64 = 0x5061_726C_6579_0002
    /// How many monthly partitions ``preparePartitions(now:)`` keeps ready: this month and the next two.
    static let preparedMonths = 3

    /// Applies the migrations this database lacks, each in its own transaction, then prepares the mailbox partitions
    /// for now (``preparePartitions(now:)``). Safe to call from several processes at once: an advisory lock makes
    /// them take turns, and each finds what the others applied in `schema_migrations`.
    ///
    /// - Throws: The server's error when a migration fails; that migration is rolled back, earlier ones stay.
    public func migrate() async throws {
        try await transaction { connection in
            try await perform("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", on: connection)
            try await perform(PostgresQuery(unsafeSQL: PostgresSchema.migrationsTable), on: connection)
        }
        for migration in PostgresSchema.migrations {
            try await transaction { connection in
                try await perform("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", on: connection)
                let applied = try await exists(
                    "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = \(migration.version))", on: connection)
                guard !applied else { return }
                logger.info("Applying database migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                for statement in migration.statements {
                    try await perform(PostgresQuery(unsafeSQL: statement), on: connection)
                }
                try await perform(
                    """
                    INSERT INTO schema_migrations (version, name, applied)
                    VALUES (\(migration.version), \(migration.name), \(Self.bigint(ServerClock.milliseconds())))
                    """, on: connection)
            }
        }
        try await preparePartitions(now: ServerClock.milliseconds())
    }

    /// Creates the monthly mailbox partitions `mailbox_yYYYYmMM` for the month holding `now` (milliseconds since 1970,
    /// UTC months) and the two after it, where missing. Call it at startup (``migrate()`` does) and periodically, e.g.
    /// hourly with the expiry sweep, so envelopes land in their month's partition rather than the default one.
    ///
    /// If the default partition already holds envelopes of a month being created, they move into the new partition in
    /// the same transaction (PostgreSQL would otherwise refuse to create it).
    public func preparePartitions(now: UInt64) async throws {
        var partition = MailboxPartition(containing: Self.bigint(now))
        for _ in 0..<Self.preparedMonths {
            try await createPartition(partition)
            partition = partition.next
        }
    }

    /// Drops the monthly partitions whose whole range ends at or before `cutoff`.
    func dropPartitions(endingBy cutoff: Int64) async throws {
        try await transaction { connection in
            try await perform("SELECT pg_advisory_xact_lock(\(Self.partitionLock))", on: connection)
            let rows = try await connection.query(
                """
                SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'mailbox'::regclass
                """, logger: logger)
            var expired: [MailboxPartition] = []
            for try await name in rows.decode(String.self) {
                if let partition = MailboxPartition(tableName: name), partition.upperBound <= cutoff { expired.append(partition) }
            }
            for partition in expired {
                logger.info("Dropping expired mailbox partition", metadata: ["partition": "\(partition.tableName)"])
                // The name is rebuilt from the parsed month, never taken from the database as text.
                try await perform("DROP TABLE \(unescaped: partition.tableName)", on: connection)
            }
        }
    }

    private func createPartition(_ partition: MailboxPartition) async throws {
        let table = partition.tableName
        let lower = partition.lowerBound
        let upper = partition.upperBound
        try await transaction { connection in
            try await perform("SELECT pg_advisory_xact_lock(\(Self.partitionLock))", on: connection)
            guard try await !exists("SELECT to_regclass(\(table)) IS NOT NULL", on: connection) else { return }
            // Blocks writes to the mailbox (not reads) until commit, so no envelope of this month reaches the default
            // partition between the check below and the partition's creation.
            try await perform("LOCK TABLE mailbox IN SHARE ROW EXCLUSIVE MODE", on: connection)
            let stranded = try await exists(
                """
                SELECT EXISTS (SELECT 1 FROM mailbox_default WHERE server_timestamp >= \(lower) AND server_timestamp < \(upper))
                """, on: connection)
            let bounds = "FOR VALUES FROM (\(lower)) TO (\(upper))"
            guard stranded else {
                try await perform("CREATE TABLE \(unescaped: table) PARTITION OF mailbox \(unescaped: bounds)", on: connection)
                return
            }
            logger.info("Moving envelopes from the default mailbox partition", metadata: ["partition": "\(table)"])
            try await perform("CREATE TABLE \(unescaped: table) (LIKE mailbox INCLUDING DEFAULTS)", on: connection)
            try await perform(
                """
                WITH moved AS (
                    DELETE FROM mailbox_default WHERE server_timestamp >= \(lower) AND server_timestamp < \(upper) RETURNING *)
                INSERT INTO \(unescaped: table) SELECT * FROM moved
                """, on: connection)
            try await perform("ALTER TABLE mailbox ATTACH PARTITION \(unescaped: table) \(unescaped: bounds)", on: connection)
        }
    }
}
