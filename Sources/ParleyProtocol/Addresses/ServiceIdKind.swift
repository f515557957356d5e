/// Which kind of account identifier a ``ServiceId`` is; the raw value is the kind byte of the fixed-width binary form.
public enum ServiceIdKind: UInt8, Sendable {
    /// An account identifier (``Aci``).
    case aci = 0
    /// A phone-number identifier (``Pni``).
    case pni = 1
}
