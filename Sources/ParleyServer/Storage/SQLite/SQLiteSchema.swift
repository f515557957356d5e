internal import GRDB

/// The SQLite schema, one migration per version. Never edit a shipped migration; add the next one.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: accounts, devices, prekeys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accounts (
                        id TEXT PRIMARY KEY NOT NULL,
                        username TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        identity_key BLOB NOT NULL,
                        created INTEGER NOT NULL
                    );
                    CREATE TABLE devices (
                        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        device_id INTEGER NOT NULL,
                        registration_id INTEGER NOT NULL,
                        name TEXT,
                        password_hash TEXT NOT NULL,
                        created INTEGER NOT NULL,
                        PRIMARY KEY (account_id, device_id)
                    );
                    CREATE TABLE signed_prekeys (
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        key_id INTEGER NOT NULL, public_key BLOB NOT NULL, signature BLOB NOT NULL,
                        PRIMARY KEY (account_id, device_id),
                        FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                    );
                    CREATE TABLE one_time_prekeys (
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        key_id INTEGER NOT NULL, public_key BLOB NOT NULL,
                        PRIMARY KEY (account_id, device_id, key_id),
                        FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                    );
                    CREATE TABLE kem_prekeys (
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        key_id INTEGER NOT NULL, public_key BLOB NOT NULL, signature BLOB NOT NULL,
                        last_resort BOOLEAN NOT NULL,
                        PRIMARY KEY (account_id, device_id, key_id),
                        FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                    );
                    """)
        }
        migrator.registerMigration("v2: mailboxes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE mailbox (
                        guid TEXT PRIMARY KEY NOT NULL,
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        source_account_id TEXT NOT NULL, source_device_id INTEGER NOT NULL,
                        type INTEGER NOT NULL, content BLOB NOT NULL,
                        timestamp INTEGER NOT NULL, server_timestamp INTEGER NOT NULL,
                        FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                    );
                    CREATE INDEX mailbox_by_device ON mailbox (account_id, device_id, server_timestamp);
                    CREATE INDEX mailbox_by_age ON mailbox (server_timestamp);
                    """)
        }
        migrator.registerMigration("v3: device link codes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE link_codes (
                        code_hash BLOB PRIMARY KEY NOT NULL,
                        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        expires INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v4: provisioning messages") { db in
            try db.execute(
                sql: """
                    CREATE TABLE provisioning_messages (
                        address TEXT PRIMARY KEY NOT NULL,
                        body BLOB NOT NULL,
                        expires INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v5: content hash banks and import jobs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE dcd_hashes (
                        bank TEXT NOT NULL,
                        hash BLOB NOT NULL,
                        added INTEGER NOT NULL,
                        expires INTEGER,
                        PRIMARY KEY (bank, hash)
                    ) WITHOUT ROWID;
                    CREATE INDEX dcd_hashes_by_expiry ON dcd_hashes (expires) WHERE expires IS NOT NULL;
                    CREATE TABLE dcd_import_jobs (
                        id TEXT PRIMARY KEY NOT NULL,
                        bank TEXT NOT NULL,
                        state TEXT NOT NULL,
                        file_bytes INTEGER NOT NULL,
                        resume_offset INTEGER NOT NULL DEFAULT 0,
                        lines INTEGER NOT NULL DEFAULT 0,
                        imported INTEGER NOT NULL DEFAULT 0,
                        duplicates INTEGER NOT NULL DEFAULT 0,
                        invalid INTEGER NOT NULL DEFAULT 0,
                        errors TEXT NOT NULL DEFAULT '[]',
                        created INTEGER NOT NULL,
                        updated INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v6: PIN key backups") { db in
            try db.execute(
                sql: """
                    CREATE TABLE key_backups (
                        account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        blob BLOB NOT NULL,
                        kdf_parameters TEXT NOT NULL,
                        verifier_hash BLOB NOT NULL,
                        failures INTEGER NOT NULL DEFAULT 0,
                        created INTEGER NOT NULL,
                        -- Which OPRF key the backup was made under (BackupOPRFKey.keyId).
                        key_id BLOB NOT NULL,
                        -- SHA-256 of the one restore attempt the last counted guess allows.
                        attempt_token_hash BLOB
                    );
                    """)
        }
        migrator.registerMigration("v7: registration invites, disabled accounts") { db in
            try db.execute(
                sql: """
                    ALTER TABLE accounts ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE invites (
                        token_hash BLOB PRIMARY KEY NOT NULL,
                        uses_left INTEGER NOT NULL,
                        expires INTEGER NOT NULL,
                        created INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v8: unidentified access, envelopes without a source") { db in
            // SQLite cannot drop NOT NULL: the mailbox is copied into a table whose source columns may be NULL, rowids
            // (the delivery order within a millisecond) kept.
            try db.execute(
                sql: """
                    ALTER TABLE accounts ADD COLUMN unidentified_access_key BLOB;
                    ALTER TABLE accounts ADD COLUMN unrestricted_unidentified_access INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE mailbox_v8 (
                        guid TEXT PRIMARY KEY NOT NULL,
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        source_account_id TEXT, source_device_id INTEGER,
                        type INTEGER NOT NULL, content BLOB NOT NULL,
                        timestamp INTEGER NOT NULL, server_timestamp INTEGER NOT NULL,
                        FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                    );
                    INSERT INTO mailbox_v8 (rowid, guid, account_id, device_id, source_account_id, source_device_id, type, content,
                                            timestamp, server_timestamp)
                        SELECT rowid, guid, account_id, device_id, source_account_id, source_device_id, type, content,
                               timestamp, server_timestamp FROM mailbox;
                    DROP TABLE mailbox;
                    ALTER TABLE mailbox_v8 RENAME TO mailbox;
                    CREATE INDEX mailbox_by_device ON mailbox (account_id, device_id, server_timestamp);
                    CREATE INDEX mailbox_by_age ON mailbox (server_timestamp);
                    """)
        }
        migrator.registerMigration("v9: push targets, open sockets") { db in
            try db.execute(
                sql: """
                    CREATE TABLE push_targets (
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        -- webpush, apns or fcm; address is the endpoint URL or the token.
                        provider TEXT NOT NULL, address TEXT NOT NULL,
                        p256dh TEXT, auth TEXT, topic TEXT, sandbox INTEGER NOT NULL DEFAULT 0,
                        registered INTEGER NOT NULL,
                        -- When the device was last pushed (coalescing); cleared when it connects.
                        pushed_at INTEGER,
                        PRIMARY KEY (account_id, device_id),
                        FOREIGN KEY (account_id, device_id) REFERENCES devices(account_id, device_id) ON DELETE CASCADE
                    );
                    CREATE TABLE device_sockets (
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        instance_id TEXT NOT NULL,
                        seen INTEGER NOT NULL,
                        PRIMARY KEY (account_id, device_id, instance_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX device_sockets_by_instance ON device_sockets (instance_id, seen);
                    """)
        }
        migrator.registerMigration("v10: idempotency records of sends") { db in
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_records (
                        -- device:<account>.<device>, or for sends without credentials unidentified:<recipient account> or
                        -- unidentified-multi:<sha-256 of the recipients' service ids>.
                        scope TEXT NOT NULL, key TEXT NOT NULL,
                        -- <recipient account>:<timestamp> (multi:<timestamp>): the message the key was first used for.
                        fingerprint TEXT NOT NULL,
                        server_timestamp INTEGER NOT NULL,
                        PRIMARY KEY (scope, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX idempotency_records_by_age ON idempotency_records (server_timestamp);
                    """)
        }
        migrator.registerMigration("v11: server-stored groups, profile key commitments") { db in
            try db.execute(
                sql: """
                    -- A group as its members encrypted it (a serialized Group protobuf): member ids, profile keys, title
                    -- and the rest are zkgroup ciphertexts. The id is the group's identifier (from its public params).
                    CREATE TABLE stored_groups (
                        id BLOB PRIMARY KEY NOT NULL,
                        version INTEGER NOT NULL,
                        state BLOB NOT NULL,
                        updated INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    -- Each accepted change (a signed GroupChange) with the state it made, in revision order.
                    CREATE TABLE group_changes (
                        group_id BLOB NOT NULL REFERENCES stored_groups (id) ON DELETE CASCADE,
                        version INTEGER NOT NULL,
                        change BLOB NOT NULL,
                        state BLOB NOT NULL,
                        PRIMARY KEY (group_id, version)
                    ) WITHOUT ROWID;
                    -- The profile key commitment an account published for each profile key version (hex), against
                    -- which profile key credentials are issued.
                    CREATE TABLE profile_key_commitments (
                        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        version TEXT NOT NULL,
                        commitment BLOB NOT NULL,
                        created INTEGER NOT NULL,
                        PRIMARY KEY (account_id, version)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v12: username hashes and links") { db in
            try db.execute(
                sql: """
                    -- Usernames as their hashes (ristretto255 points): one confirmed per account, and reservations that
                    -- lapse at reserved_until (milliseconds). The plain username is never stored.
                    CREATE TABLE username_hashes (
                        hash BLOB PRIMARY KEY NOT NULL,
                        account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                        confirmed INTEGER NOT NULL,
                        reserved_until INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX username_hashes_by_account ON username_hashes (account_id);
                    -- Username links: an encrypted username the server cannot read, under a random handle.
                    CREATE TABLE username_links (
                        handle TEXT PRIMARY KEY NOT NULL,
                        account_id TEXT NOT NULL UNIQUE REFERENCES accounts(id) ON DELETE CASCADE,
                        encrypted_value BLOB NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        // An account's plain name becomes optional (SQLite cannot drop NOT NULL, so the table is rebuilt; the migrator
        // turns foreign keys off meanwhile and checks them before it commits): accounts registered without one go by a
        // username the server keeps only as a hash, and an account's name is deleted once it has confirmed one (and its
        // PIN backup no longer needs the name).
        migrator.registerMigration("v13: accounts without plain names") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accounts_v13 (
                        id TEXT PRIMARY KEY NOT NULL,
                        username TEXT UNIQUE COLLATE NOCASE,
                        identity_key BLOB NOT NULL,
                        created INTEGER NOT NULL,
                        disabled INTEGER NOT NULL DEFAULT 0,
                        unidentified_access_key BLOB,
                        unrestricted_unidentified_access INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO accounts_v13 (id, username, identity_key, created, disabled, unidentified_access_key,
                                              unrestricted_unidentified_access)
                    SELECT id, username, identity_key, created, disabled, unidentified_access_key, unrestricted_unidentified_access
                    FROM accounts;
                    DROP TABLE accounts;
                    ALTER TABLE accounts_v13 RENAME TO accounts;
                    """)
        }
        return migrator
    }
}
