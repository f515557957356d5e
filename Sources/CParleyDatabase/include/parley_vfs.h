#ifndef PARLEY_VFS_H
#define PARLEY_VFS_H

/* Encryption at rest for SQLite databases, page by page (SQLCipher's model), as a VFS shim over
 * the system SQLite, so GRDB runs on top unchanged.
 *
 * Every page of a keyed database, of its WAL and of its rollback journal is sealed with
 * XChaCha20-Poly1305 (libsodium). The page's last PARLEY_VFS_RESERVE bytes, which SQLite leaves
 * to extensions, hold the page's fresh random nonce and its authentication tag. A database whose
 * path has no key passes through untouched.
 *
 * Order of calls for an encrypted connection:
 *   1. parley_vfs_register()                  once per process, before any connection opens;
 *   2. parley_vfs_set_key(path, key)          before opening `path`;
 *   3. open the database (GRDB: DatabasePool / DatabaseQueue with the default VFS);
 *   4. right after opening, before anything is written (GRDB: Configuration.prepareDatabase):
 *          int reserve = PARLEY_VFS_RESERVE;
 *          sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
 *      This gives a new database its reserved bytes; on an existing one it is harmless and
 *      keeps VACUUM from dropping them. Then check parley_vfs_is_encrypted(db);
 *   5. PRAGMA temp_store = MEMORY (temporary tables and statement journals are not encrypted,
 *      see below), then PRAGMA journal_mode = WAL.
 *
 * Errors a connection reports (extended result codes):
 *   SQLITE_NOTADB      page 1 does not open: wrong key, or not a database this module encrypted
 *                      (a plaintext database opened with a key fails the same way). Usually
 *                      reported by sqlite3_open_v2 itself, which reads the header at open.
 *   SQLITE_IOERR_DATA  any other page of the database or its WAL failed authentication: the
 *                      file was modified or damaged.
 *   SQLITE_IOERR_WRITE a keyed database's page 1 is about to be written without 40 reserved
 *                      bytes (step 4 was skipped), or with another page size than the file's
 *                      (PRAGMA page_size + VACUUM, or sqlite3_backup from a database with another
 *                      page size: the page size is fixed when the database is created), or SQLite
 *                      wrote in a shape this module cannot encrypt. Nothing reaches the file in
 *                      plaintext; the transaction rolls back; sqlite3_log says which case.
 *
 * Not covered: temporary files SQLite creates without a name (temp tables, statement
 * journals, sort spills). PRAGMA temp_store = MEMORY keeps all but sort spills in memory;
 * a sort larger than the page cache still spills to an unlinked temporary file. */

/// Reserved bytes every encrypted page needs: a 24-byte nonce followed by a 16-byte tag.
#define PARLEY_VFS_RESERVE 40

/// Length of a database key.
#define PARLEY_VFS_KEY_BYTES 32

struct sqlite3;

/// Registers the "parley" VFS over the current default VFS and makes it the default.
/// Idempotent and thread-safe. Returns SQLITE_OK, or SQLITE_ERROR when libsodium cannot start
/// or there is no default VFS to wrap.
int parley_vfs_register(void);

/// Registers `key` for the database at `database_path` (relative paths and symlinks are resolved
/// the way SQLite resolves them), replacing any earlier key for that path. Connections opened
/// afterwards encrypt; open connections keep the key they opened with. Returns SQLITE_OK,
/// SQLITE_MISUSE before parley_vfs_register or with NULL arguments, SQLITE_NOMEM.
int parley_vfs_set_key(const char *database_path, const unsigned char key[PARLEY_VFS_KEY_BYTES]);

/// Wipes and forgets the key for `database_path`. Call it after closing the database's
/// connections. Returns SQLITE_OK (also when no key was registered) or SQLITE_MISUSE.
int parley_vfs_clear_key(const char *database_path);

/// 1 when `db`'s main database file is open through this module with a key, 0 otherwise.
int parley_vfs_is_encrypted(struct sqlite3 *db);

/// Opens page `page_number` (1-based) of a keyed main database file — `sealed` is the page as stored, `page_size`
/// bytes — into `plain` (the reserve zeroed). For inspecting what a database file holds at rest, such as that
/// erased content is gone from every page, free pages included. Returns 0, or -1 when the page does not
/// authenticate under `key` or the page size is not one SQLite uses.
int parley_vfs_open_database_page(const unsigned char key[PARLEY_VFS_KEY_BYTES], unsigned int page_number,
                                  int page_size, const unsigned char *sealed, unsigned char *plain);

#endif
