/// What a SQLite commit survives once it returns.
public enum SQLiteDurability: String, Sendable, CaseIterable {
    /// The server process being killed (WAL with `synchronous = NORMAL`: no fsync per commit).
    case processCrash = "process"
    /// A power cut as well (`synchronous = FULL`: an fsync per commit, much slower).
    case powerLoss = "power"
}
