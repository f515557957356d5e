extension ParleyError {
    /// Why a PIN backup could not be made or restored, with messages meant for people. None of them says anything about
    /// the PIN itself.
    public enum Backup: Sendable, Equatable, CustomStringConvertible {
        /// The PIN is shorter than ``KeyBackup/minimumPINLength`` characters.
        case pinTooShort
        /// The PIN is wrong; the server allows `attemptsLeft` more guesses (at zero it has deleted the backup).
        case wrongPIN(attemptsLeft: Int)
        /// The server deleted the backup after too many wrong PINs.
        case wiped
        /// Too many guesses in the server's window; the next one can come in `retryAfter` seconds.
        case rateLimited(retryAfter: Int)
        /// The server holds no backup for this username (or knows no such username).
        case noBackup
        /// Only the primary device (1) makes and deletes backups.
        case notPrimaryDevice
        /// This database already has an account: a backup restores into a new one.
        case alreadyRegistered
        /// The backup or the server's answer cannot be used.
        case malformed(String)

        public var description: String {
            switch self {
            case .pinTooShort: return "the PIN must be at least \(KeyBackup.minimumPINLength) characters"
            case .wrongPIN(let left) where left > 0:
                return "wrong PIN: \(left) attempt\(left == 1 ? "" : "s") left before the server deletes the backup"
            case .wrongPIN: return "wrong PIN: no attempts left, the server has deleted the backup"
            case .wiped: return "the server deleted the backup after too many wrong PINs"
            case .rateLimited(let seconds): return "too many PIN attempts: try again in \(seconds) s"
            case .noBackup: return "the server has no backup for this username"
            case .notPrimaryDevice: return "only the primary device (1) can make or delete the backup"
            case .alreadyRegistered: return "this account already exists here: restore into a new --account"
            case .malformed(let detail): return "unusable backup: \(detail)"
            }
        }
    }
}
