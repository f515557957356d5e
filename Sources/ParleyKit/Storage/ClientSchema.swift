internal import GRDB

/// The client database schema, one migration per version. Never edit a shipped migration; add the next one.
enum ClientSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: identity, protocol state, conversations, jobs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE local_account (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        server_url TEXT NOT NULL,
                        username TEXT NOT NULL,
                        account_id TEXT,
                        device_id INTEGER,
                        password TEXT NOT NULL,
                        identity_key_pair BLOB NOT NULL,
                        registration_id INTEGER NOT NULL,
                        next_prekey_id INTEGER NOT NULL DEFAULT 1,
                        next_signed_prekey_id INTEGER NOT NULL DEFAULT 1,
                        next_kyber_prekey_id INTEGER NOT NULL DEFAULT 1
                    );
                    CREATE TABLE prekeys (id INTEGER PRIMARY KEY, record BLOB NOT NULL);
                    CREATE TABLE signed_prekeys (id INTEGER PRIMARY KEY, record BLOB NOT NULL, created INTEGER NOT NULL);
                    CREATE TABLE kyber_prekeys (
                        id INTEGER PRIMARY KEY, record BLOB NOT NULL,
                        last_resort BOOLEAN NOT NULL DEFAULT 0, used BOOLEAN NOT NULL DEFAULT 0
                    );
                    CREATE TABLE sessions (
                        address TEXT NOT NULL, device_id INTEGER NOT NULL, record BLOB NOT NULL,
                        PRIMARY KEY (address, device_id)
                    );
                    CREATE TABLE sender_keys (
                        address TEXT NOT NULL, device_id INTEGER NOT NULL, distribution_id TEXT NOT NULL, record BLOB NOT NULL,
                        PRIMARY KEY (address, device_id, distribution_id)
                    );
                    CREATE TABLE trusted_identities (
                        address TEXT PRIMARY KEY NOT NULL,
                        identity_key BLOB NOT NULL,
                        first_seen INTEGER NOT NULL,
                        -- 0 after the key changed until the user accepts the new safety number.
                        accepted BOOLEAN NOT NULL DEFAULT 1,
                        verified BOOLEAN NOT NULL DEFAULT 0
                    );
                    CREATE TABLE recipients (account_id TEXT PRIMARY KEY NOT NULL, username TEXT);
                    CREATE TABLE recipient_devices (
                        account_id TEXT NOT NULL REFERENCES recipients(account_id) ON DELETE CASCADE,
                        device_id INTEGER NOT NULL, registration_id INTEGER NOT NULL,
                        PRIMARY KEY (account_id, device_id)
                    );
                    CREATE TABLE threads (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        recipient_account_id TEXT UNIQUE REFERENCES recipients(account_id),
                        group_id BLOB UNIQUE,
                        title TEXT,
                        last_message_id INTEGER,
                        unread_count INTEGER NOT NULL DEFAULT 0,
                        updated INTEGER NOT NULL
                    );
                    CREATE TABLE messages (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
                        outgoing BOOLEAN NOT NULL,
                        author_account_id TEXT NOT NULL,
                        author_device_id INTEGER NOT NULL,
                        timestamp INTEGER NOT NULL,
                        server_timestamp INTEGER,
                        body TEXT,
                        status TEXT NOT NULL,
                        failure_reason TEXT,
                        reply_to_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
                        read BOOLEAN NOT NULL DEFAULT 0,
                        -- One row per message even when the server delivers it twice.
                        UNIQUE (author_account_id, author_device_id, timestamp)
                    );
                    CREATE INDEX messages_by_thread ON messages (thread_id, id);
                    CREATE TABLE attachments (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        server_id TEXT, keys BLOB, digest BLOB, size INTEGER NOT NULL, content_type TEXT, file_name TEXT,
                        local_path TEXT, state TEXT NOT NULL
                    );
                    CREATE TABLE reactions (
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        author_account_id TEXT NOT NULL, emoji TEXT NOT NULL, timestamp INTEGER NOT NULL,
                        PRIMARY KEY (message_id, author_account_id)
                    );
                    CREATE TABLE receipts (
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL, kind TEXT NOT NULL, timestamp INTEGER NOT NULL,
                        PRIMARY KEY (message_id, account_id, device_id, kind)
                    );
                    CREATE TABLE drafts (
                        thread_id INTEGER PRIMARY KEY REFERENCES threads(id) ON DELETE CASCADE, body TEXT NOT NULL, updated INTEGER NOT NULL
                    );
                    CREATE TABLE jobs (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL, payload BLOB NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0, not_before INTEGER NOT NULL, last_error TEXT,
                        created INTEGER NOT NULL
                    );
                    CREATE INDEX jobs_due ON jobs (not_before, id);
                    """)
        }
        migrator.registerMigration("v2: why an attachment was blocked") { db in
            try db.execute(sql: "ALTER TABLE attachments ADD COLUMN blocked_reason TEXT")
        }
        migrator.registerMigration("v3: the inbox in its display order") { db in
            try db.execute(sql: "CREATE INDEX threads_by_update ON threads (updated DESC, id DESC)")
        }
        migrator.registerMigration("v4: edits, deletes, disappearing messages, voice notes, settings, mute, groups") { db in
            try db.execute(
                sql: """
                    ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'message';
                    ALTER TABLE messages ADD COLUMN edited_at INTEGER;
                    ALTER TABLE messages ADD COLUMN deleted BOOLEAN NOT NULL DEFAULT 0;
                    ALTER TABLE messages ADD COLUMN expire_timer INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE messages ADD COLUMN expire_at INTEGER;
                    CREATE INDEX messages_expiring ON messages (expire_at) WHERE expire_at IS NOT NULL;
                    CREATE TABLE message_edits (
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        timestamp INTEGER NOT NULL,
                        body TEXT,
                        PRIMARY KEY (message_id, timestamp)
                    );
                    ALTER TABLE threads ADD COLUMN expire_timer INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE threads ADD COLUMN muted_until INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE attachments ADD COLUMN duration_ms INTEGER;
                    ALTER TABLE attachments ADD COLUMN waveform BLOB;
                    ALTER TABLE attachments ADD COLUMN voice_note BOOLEAN NOT NULL DEFAULT 0;
                    CREATE TABLE settings (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    ALTER TABLE threads ADD COLUMN group_revision INTEGER NOT NULL DEFAULT 0;
                    -- This device's current sender-key distribution in the group (UUID text); NULL until the next send
                    -- after a member removal makes a new one.
                    ALTER TABLE threads ADD COLUMN distribution_id TEXT;
                    -- 1 once this account left or was removed: it can no longer send there.
                    ALTER TABLE threads ADD COLUMN left_group BOOLEAN NOT NULL DEFAULT 0;
                    CREATE TABLE group_members (
                        thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
                        account_id TEXT NOT NULL,
                        PRIMARY KEY (thread_id, account_id)
                    );
                    -- Member devices that hold this device's sender key for a distribution.
                    CREATE TABLE sender_key_shared (
                        thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
                        distribution_id TEXT NOT NULL, account_id TEXT NOT NULL, device_id INTEGER NOT NULL,
                        PRIMARY KEY (thread_id, distribution_id, account_id, device_id)
                    );
                    -- Which group and distribution another device's sender-key chain belongs to (the version-3 group
                    -- message names only its chain).
                    CREATE TABLE sender_key_chains (
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL, chain_id INTEGER NOT NULL,
                        thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE, distribution_id TEXT NOT NULL,
                        PRIMARY KEY (account_id, device_id, chain_id)
                    );
                    """)
        }
        migrator.registerMigration("v5: base keys seen with the last-resort KEM prekey") { db in
            try db.execute(
                sql: """
                    -- A pre-key message that used the last-resort KEM prekey: its ids and the sender's base key. The same
                    -- triple again is a replay and is refused (LibSignalClient's markKyberPreKeyUsed contract).
                    CREATE TABLE kyber_base_keys_seen (
                        kyber_prekey_id INTEGER NOT NULL, signed_prekey_id INTEGER NOT NULL, base_key BLOB NOT NULL,
                        PRIMARY KEY (kyber_prekey_id, signed_prekey_id, base_key)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v6: profile keys, sealed sender, the message send log") { db in
            try db.execute(
                sql: """
                    -- This account's profile key (32 bytes; its access key is on the server) and each contact's.
                    ALTER TABLE local_account ADD COLUMN profile_key BLOB;
                    ALTER TABLE recipients ADD COLUMN profile_key BLOB;
                    -- The server refused the access key derived from the contact's profile key (401): send authenticated
                    -- until a new profile key arrives.
                    ALTER TABLE recipients ADD COLUMN sealed_refused BOOLEAN NOT NULL DEFAULT 0;
                    -- The message arrived sealed: the server did not know who sent it.
                    ALTER TABLE messages ADD COLUMN sealed BOOLEAN NOT NULL DEFAULT 0;
                    -- Recent content sent to each device, kept for one resend when that device answers with a retry
                    -- receipt (bounded in age and count: MessageSendLog).
                    CREATE TABLE message_send_log (
                        account_id TEXT NOT NULL, device_id INTEGER NOT NULL, timestamp INTEGER NOT NULL,
                        content BLOB NOT NULL,
                        group_thread_id INTEGER,
                        sent_at INTEGER NOT NULL,
                        resent BOOLEAN NOT NULL DEFAULT 0,
                        PRIMARY KEY (account_id, device_id, timestamp)
                    ) WITHOUT ROWID;
                    CREATE INDEX message_send_log_by_age ON message_send_log (sent_at);
                    """)
        }
        migrator.registerMigration("v7: mentions") { db in
            // The accounts a message's text mentions: a JSON array of {accountId, start, length} (UTF-16 ranges of
            // the body), NULL when it mentions no one.
            try db.execute(sql: "ALTER TABLE messages ADD COLUMN mentions TEXT")
        }
        migrator.registerMigration("v8: messages by author and timestamp") { db in
            // Receipts, quotes, reactions, edits and deletes find a message by its author and timestamp. The unique
            // index leads with the author and then the device, so without this one every lookup read all of that
            // author's messages (a receipt, all this account has sent).
            try db.execute(sql: "CREATE INDEX messages_by_author_time ON messages (author_account_id, timestamp)")
        }
        migrator.registerMigration("v9: acts that arrive before their message") { db in
            try db.execute(
                sql: """
                    -- An edit, delete or reaction whose message has not arrived (or could not be decrypted yet), applied
                    -- when the message comes (EarlyActsTable): the act (a padded Content protobuf), who sent it when
                    -- (JSON), its author, kind and sending time, and when it is forgotten.
                    CREATE TABLE early_acts (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        target_author TEXT NOT NULL, target_timestamp INTEGER NOT NULL,
                        author TEXT NOT NULL, kind TEXT NOT NULL, acted_at INTEGER NOT NULL,
                        act BLOB NOT NULL, origin BLOB NOT NULL,
                        expires_at INTEGER NOT NULL
                    );
                    CREATE INDEX early_acts_by_target ON early_acts (target_author, target_timestamp, author, kind);
                    CREATE INDEX early_acts_by_expiry ON early_acts (expires_at);
                    CREATE INDEX early_acts_by_author ON early_acts (author, id);
                    """)
        }
        migrator.registerMigration("v10: messages by thread and timestamp") { db in
            // An edit or delete naming a message not here checks whether another author wrote at that time in the
            // conversation: without this index, a read of the whole conversation.
            try db.execute(sql: "CREATE INDEX messages_by_thread_time ON messages (thread_id, timestamp)")
        }
        migrator.registerMigration("v11: pinned conversations") { db in
            // When a conversation was pinned (milliseconds since 1970; 0: not pinned). The inbox lists pinned
            // conversations first, the latest pinned on top, then the others by their last change: its own index.
            try db.execute(
                sql: """
                    ALTER TABLE threads ADD COLUMN pinned_at INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX threads_in_inbox_order ON threads (pinned_at DESC, updated DESC, id DESC);
                    DROP INDEX threads_by_update;
                    """)
        }
        migrator.registerMigration("v12: server-stored groups") { db in
            // A group the server stores: its conversation (whose group_id is the group's 32-byte identifier), the master
            // key every member holds, and the group as the server last answered it (a serialized Group protobuf of
            // ciphertexts: roles, invitations, requests, access control, the invite link).
            try db.execute(
                sql: """
                    CREATE TABLE server_groups (
                        thread_id INTEGER PRIMARY KEY REFERENCES threads(id) ON DELETE CASCADE,
                        master_key BLOB NOT NULL,
                        state BLOB,
                        -- From the state, for the rules every message meets: only administrators send in an
                        -- announcements group (their account ids, one per line).
                        announcements_only INTEGER NOT NULL DEFAULT 0,
                        administrators TEXT NOT NULL DEFAULT ''
                    );
                    """)
        }
        migrator.registerMigration("v13: usernames correspondents claim") { db in
            // The username a correspondent's message says it goes by, until its hash is checked to lead to that account
            // (the server stores no name for accounts that go by a username).
            try db.execute(sql: "ALTER TABLE recipients ADD COLUMN claimed_username TEXT")
            // A file saved outside the account's own attachment folder (`parley download --to DIR`): an export the
            // person keeps, which a disappearing message's timer or a delete for everyone leaves alone, as Signal does.
            try db.execute(sql: "ALTER TABLE attachments ADD COLUMN exported INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }
}
