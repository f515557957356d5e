import Foundation

/// A Signal account identifier: an ``Aci`` (the account) or a ``Pni`` (its phone number), each a UUID.
///
/// The forms, as libsignal defines them:
/// - string: an ACI is the lowercase hyphenated UUID; a PNI is `PNI:` and the UUID. Parsing accepts either case in the
///   UUID and only the hyphenated form;
/// - binary (``serviceIdBinary``): an ACI is its 16 UUID bytes; a PNI is the kind byte `0x01` and the 16 bytes;
/// - fixed-width binary (``serviceIdFixedWidthBinary``): always 17 bytes, the kind byte first.
///
/// ```swift
/// let aci = Aci(fromUUID: UUID())
/// let address = ProtocolAddress(aci, deviceId: 1)
/// let pni = try Pni.parseFrom(serviceIdString: "PNI:8c78cd2a-16ff-427d-83dc-1a5e36ce713d")
/// ```
public class ServiceId: @unchecked Sendable {
    /// The kind byte followed by the UUID's 16 bytes (immutable after initialization).
    let fixedWidth: [UInt8]

    init(kind: ServiceIdKind, uuid: UUID) {
        fixedWidth = [kind.rawValue] + withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// The kind (ACI or PNI).
    public var kind: ServiceIdKind { ServiceIdKind(rawValue: fixedWidth[0])! }

    /// The UUID without its kind.
    public var rawUUID: UUID {
        let b = fixedWidth
        return UUID(uuid: (b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15], b[16]))
    }

    /// The string form: the lowercase UUID for an ACI, `PNI:` and the lowercase UUID for a PNI.
    public var serviceIdString: String {
        let uuid = rawUUID.uuidString.lowercased()
        return kind == .aci ? uuid : "PNI:\(uuid)"
    }

    /// ``serviceIdString`` in upper case (as iOS's `UUID.uuidString` prints UUIDs).
    public var serviceIdUppercaseString: String { serviceIdString.uppercased() }

    /// The form for logs: `<ACI:uuid>` or `<PNI:uuid>`.
    public var logString: String { "<\(kind == .aci ? "ACI" : "PNI"):\(rawUUID.uuidString.lowercased())>" }

    /// The binary form: 16 bytes for an ACI, `0x01` and 16 bytes for a PNI.
    public var serviceIdBinary: Data { kind == .aci ? Data(fixedWidth[1...]) : Data(fixedWidth) }

    /// The 17-byte fixed-width form: kind byte, then the UUID.
    public var serviceIdFixedWidthBinary: Data { Data(fixedWidth) }

    /// Parses the string form as `Self` (``ServiceId`` accepts both kinds; ``Aci`` and ``Pni`` only their own).
    /// - Throws: ``ServiceIdError/invalidServiceId``, or ``ServiceIdError/wrongServiceIdKind`` for the other kind.
    public static func parseFrom(serviceIdString string: String) throws -> Self {
        let (kind, uuidText) = string.hasPrefix("PNI:") ? (ServiceIdKind.pni, String(string.dropFirst(4))) : (.aci, string)
        guard uuidText.utf8.count == 36, let uuid = UUID(uuidString: uuidText) else { throw ServiceIdError.invalidServiceId }
        return try make(kind: kind, uuid: uuid).downcast()
    }

    /// Parses the binary form (16 bytes: ACI; 17 bytes with kind `0x01`: PNI) as `Self`.
    /// - Throws: ``ServiceIdError/invalidServiceId`` for another length, an unknown kind, or an ACI written with its
    ///   kind byte (the binary form leaves ACIs unmarked); ``ServiceIdError/wrongServiceIdKind`` for the other kind.
    public static func parseFrom<Bytes: ContiguousBytes>(serviceIdBinary bytes: Bytes) throws -> Self {
        let raw = bytes.byteArray
        switch raw.count {
        case 16:
            return try make(kind: .aci, uuid: uuid(raw[...])).downcast()
        case 17 where raw[0] == ServiceIdKind.pni.rawValue:
            return try make(kind: .pni, uuid: uuid(raw[1...])).downcast()
        default:
            throw ServiceIdError.invalidServiceId
        }
    }

    /// Parses the 17-byte fixed-width form as `Self` (Parley's entry point; LibSignalClient keeps this one internal).
    /// - Throws: ``ServiceIdError/invalidServiceId`` for another length or an unknown kind byte,
    ///   ``ServiceIdError/wrongServiceIdKind`` for the other kind.
    public static func parseFrom<Bytes: ContiguousBytes>(fixedWidthBinary bytes: Bytes) throws -> Self {
        let raw = bytes.byteArray
        guard raw.count == 17, let kind = ServiceIdKind(rawValue: raw[0]) else { throw ServiceIdError.invalidServiceId }
        return try make(kind: kind, uuid: uuid(raw[1...])).downcast()
    }

    /// The service ids' fixed-width forms one after another (the recipient list of a multi-recipient message).
    static func concatenatedFixedWidthBinary(_ serviceIds: some Collection<ServiceId>) -> [UInt8] {
        serviceIds.flatMap(\.fixedWidth)
    }

    private static func make(kind: ServiceIdKind, uuid: UUID) -> ServiceId {
        kind == .aci ? Aci(fromUUID: uuid) : Pni(fromUUID: uuid)
    }

    private static func uuid(_ bytes: ArraySlice<UInt8>) -> UUID {
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    private func downcast<Specific: ServiceId>() throws -> Specific {
        guard let specific = self as? Specific else { throw ServiceIdError.wrongServiceIdKind }
        return specific
    }
}

extension ServiceId: Equatable {
    /// Equal when kind and UUID are.
    public static func == (lhs: ServiceId, rhs: ServiceId) -> Bool { lhs.fixedWidth == rhs.fixedWidth }
}

extension ServiceId: Comparable {
    /// Orders by the fixed-width binary form (all ACIs before all PNIs), as libsignal does.
    public static func < (lhs: ServiceId, rhs: ServiceId) -> Bool { lhs.fixedWidth.lexicographicallyPrecedes(rhs.fixedWidth) }
}

extension ServiceId: Hashable {
    /// Hashes the fixed-width form.
    public func hash(into hasher: inout Hasher) { hasher.combine(fixedWidth) }
}

extension ServiceId: CustomDebugStringConvertible {
    /// ``logString``.
    public var debugDescription: String { logString }
}
