/// Why a ``SecretKeyFile`` could not be loaded.
public enum SecretKeyFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists but does not hold exactly 32 bytes; it is left as it is.
    case malformed(path: String, bytes: Int)
    /// A new key file could not be created.
    case unwritable(path: String)

    /// A message for logs and the command line.
    public var description: String {
        switch self {
        case .malformed(let path, let bytes):
            "\(path) holds \(bytes) bytes, not a 32-byte key; restore it from a copy (without it a new key is made, and PIN backups made under the old one cannot be restored)"
        case .unwritable(let path): "cannot create the key file \(path)"
        }
    }
}
