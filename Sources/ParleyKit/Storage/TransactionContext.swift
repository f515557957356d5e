internal import GRDB
import ParleyProtocol

/// The ``StoreContext`` ParleyKit passes to ParleyProtocol: the open database transaction, so that every
/// protocol-state change lands in the same transaction as the message that caused it.
struct TransactionContext: StoreContext {
    /// The transaction's connection.
    let db: Database
    /// The session setups accepted.
    public let sessionSetupPolicy: SessionSetupPolicy

    /// A context over `db`.
    init(_ db: Database, sessionSetupPolicy: SessionSetupPolicy = .allowX3DH) {
        self.db = db
        self.sessionSetupPolicy = sessionSetupPolicy
    }

    /// The transaction, or a programming error: ``DatabaseProtocolStore`` only works inside one.
    static func database(_ context: StoreContext) throws -> Database {
        guard let context = context as? TransactionContext else { throw ParleyError.storeOutsideTransaction }
        return context.db
    }
}
