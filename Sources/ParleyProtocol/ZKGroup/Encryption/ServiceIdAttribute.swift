import Crypto
import Foundation

/// A service id as a credential attribute (libsignal's `UidStruct`): its raw UUID and its two points (``ServiceIdPoints``).
/// 80 bytes serialized: the UUID, M1, M2.
struct ServiceIdAttribute: Sendable, Equatable {
    let rawUUID: [UInt8]
    let m1: RistrettoPoint
    let m2: RistrettoPoint

    init(_ serviceId: ServiceId) {
        rawUUID = Array(serviceId.serviceIdFixedWidthBinary.dropFirst())
        m1 = ServiceIdPoints.m1(serviceId)
        m2 = ServiceIdPoints.m2(serviceId)
    }

    init(rawUUID: [UInt8], m1: RistrettoPoint, m2: RistrettoPoint) {
        self.rawUUID = rawUUID
        self.m1 = m1
        self.m2 = m2
    }

    /// The stand-in for a PNI in a credential issued without one: the points of a PNI derived from the ACI and a salt
    /// (a name-based, SHA-1 "version 5" UUID in its own namespace over SHA-256(salt) ‖ the ACI's UUID), and a nil raw
    /// UUID, so the server that issued it can recognise the account's credentials without knowing a PNI.
    static func falsePni(aci: Aci, salt: [UInt8]) -> ServiceIdAttribute {
        // 019faa2b-7bcb-70c2-ac7f-cd770414689a
        let namespace: [UInt8] = [0x01, 0x9f, 0xaa, 0x2b, 0x7b, 0xcb, 0x70, 0xc2, 0xac, 0x7f, 0xcd, 0x77, 0x04, 0x14, 0x68, 0x9a]
        let uuid = nameBasedUUID(
            namespace: namespace, name: [Array(SHA256.hash(data: salt)), Array(aci.serviceIdFixedWidthBinary.dropFirst())])
        let pni = Pni(fromUUID: UUID(zkgroupBytes: uuid))
        let points = ServiceIdAttribute(pni)
        return ServiceIdAttribute(rawUUID: [UInt8](repeating: 0, count: 16), m1: points.m1, m2: points.m2)
    }

    /// A name-based UUID, version 5 (RFC 9562 §5.5): SHA-1 over the namespace and the name's parts, cut to 16 bytes,
    /// with the version and variant bits set.
    static func nameBasedUUID(namespace: [UInt8], name parts: [[UInt8]]) -> [UInt8] {
        var hash = Insecure.SHA1()
        hash.update(data: namespace)
        for part in parts { hash.update(data: part) }
        var uuid = Array(hash.finalize().prefix(16))
        uuid[6] = (uuid[6] & 0x0f) | 0x50
        uuid[8] = (uuid[8] & 0x3f) | 0x80
        return uuid
    }

    var points: [RistrettoPoint] { [m1, m2] }

    var serialized: [UInt8] { rawUUID + m1.bytes + m2.bytes }

    /// The attribute `reader` holds next.
    static func read(_ reader: inout ZKGroupReader) throws -> ServiceIdAttribute {
        ServiceIdAttribute(rawUUID: try reader.bytes(16), m1: try reader.point(), m2: try reader.point())
    }
}
