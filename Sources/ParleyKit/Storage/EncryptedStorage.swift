import CParleyDatabase
import Foundation
internal import GRDB
internal import GRDBSQLite

/// The process-wide side of the encrypting VFS: registering it once and handing it each database's key.
enum EncryptedStorage {
    /// Registers the `parley` VFS (idempotent) and the key for the database at `path`.
    static func register(path: String, key: DatabaseKey) throws {
        guard parley_vfs_register() == SQLITE_OK else { throw ParleyError.databaseCorrupted("cannot register the encrypting VFS") }
        let status = key.bytes.withUnsafeBufferPointer { parley_vfs_set_key(path, $0.baseAddress) }
        guard status == SQLITE_OK else { throw ParleyError.databaseCorrupted("cannot register the database key") }
    }

    /// Forgets (and wipes) the key of `path`.
    static func unregister(path: String) {
        _ = parley_vfs_clear_key(path)
    }

    /// SQLite's answers to a wrong key or a tampered page, as ParleyKit errors.
    static func translate(_ error: DatabaseError) -> Error {
        switch error.resultCode {
        case .SQLITE_NOTADB: return ParleyError.wrongDatabaseKey
        case .SQLITE_CORRUPT: return ParleyError.databaseCorrupted(error.message ?? "corrupt page")
        default:
            // SQLITE_IOERR_DATA (SQLITE_IOERR | 32 << 8): a page failed its tag check.
            if error.extendedResultCode.rawValue == SQLITE_IOERR | (32 << 8) {
                return ParleyError.databaseCorrupted("a page failed authentication")
            }
            return error
        }
    }
}
