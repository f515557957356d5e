/// Why a ``ServiceId`` could not be made.
public enum ServiceIdError: Error, Sendable {
    /// The string or bytes are not a service id.
    case invalidServiceId
    /// The input is a service id of another kind than the one asked for (a PNI parsed as an ``Aci``).
    case wrongServiceIdKind
}
