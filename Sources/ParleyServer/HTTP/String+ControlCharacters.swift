extension StringProtocol {
    /// Whether the text holds a C0 control character or DEL (NUL included, which PostgreSQL refuses in any text value:
    /// a request carrying one to the store would fail there, as a 500, instead of being refused up front).
    var containsControlCharacter: Bool {
        utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}
