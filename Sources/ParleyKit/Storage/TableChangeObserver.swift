internal import GRDB
import Synchronization

/// Collects the tables a transaction writes and reports them after commit (nothing on rollback).
final class TableChangeObserver: TransactionObserver, Sendable {
    private let tables: Set<String>
    private let onChange: @Sendable (DatabaseChange) -> Void
    private let pending = Mutex(Set<String>())

    init(tables: Set<String>, onChange: @escaping @Sendable (DatabaseChange) -> Void) {
        self.tables = tables
        self.onChange = onChange
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { tables.contains(eventKind.tableName) }

    func databaseDidChange(with event: DatabaseEvent) {
        let table = event.tableName
        pending.withLock { _ = $0.insert(table) }
    }

    func databaseDidCommit(_ db: Database) {
        let changed = pending.withLock { tables -> Set<String> in
            defer { tables.removeAll() }
            return tables
        }
        if !changed.isEmpty { onChange(DatabaseChange(tables: changed)) }
    }

    func databaseDidRollback(_ db: Database) {
        pending.withLock { $0.removeAll() }
    }
}
