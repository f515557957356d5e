/// What a committed transaction changed, as transaction observers see it.
public struct DatabaseChange: Sendable, Equatable {
    /// The tables written to.
    public let tables: Set<String>

    /// A change touching `tables`.
    public init(tables: Set<String>) {
        self.tables = tables
    }
}
