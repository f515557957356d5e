import Foundation
import ParleyProtocol
import Testing

/// `ServiceId`, `Aci`, `Pni` and `ProtocolAddress(_:deviceId:)` in their libsignal forms.
@Suite struct ServiceIdTests {
    static let uuid = UUID(uuidString: "8c78cd2a-16ff-427d-83dc-1a5e36ce713d")!
    static let uuidBytes: [UInt8] = [
        0x8c, 0x78, 0xcd, 0x2a, 0x16, 0xff, 0x42, 0x7d, 0x83, 0xdc, 0x1a, 0x5e, 0x36, 0xce, 0x71, 0x3d,
    ]

    @Test func aciForms() throws {
        let aci = Aci(fromUUID: Self.uuid)
        #expect(aci.kind == .aci && aci.rawUUID == Self.uuid)
        #expect(aci.serviceIdString == "8c78cd2a-16ff-427d-83dc-1a5e36ce713d")
        #expect(aci.serviceIdUppercaseString == "8C78CD2A-16FF-427D-83DC-1A5E36CE713D")
        #expect(aci.logString == "<ACI:8c78cd2a-16ff-427d-83dc-1a5e36ce713d>")
        #expect(aci.serviceIdBinary == Data(Self.uuidBytes))
        #expect(aci.serviceIdFixedWidthBinary == Data([0x00] + Self.uuidBytes))
        #expect(try Aci.parseFrom(serviceIdString: aci.serviceIdString) == aci)
        #expect(try Aci.parseFrom(serviceIdString: aci.serviceIdUppercaseString) == aci)
        #expect(try Aci.parseFrom(serviceIdBinary: aci.serviceIdBinary) == aci)
        #expect(try ServiceId.parseFrom(serviceIdString: aci.serviceIdString) is Aci)
    }

    @Test func pniForms() throws {
        let pni = Pni(fromUUID: Self.uuid)
        #expect(pni.serviceIdString == "PNI:8c78cd2a-16ff-427d-83dc-1a5e36ce713d")
        #expect(pni.logString == "<PNI:8c78cd2a-16ff-427d-83dc-1a5e36ce713d>")
        #expect(pni.serviceIdBinary == Data([0x01] + Self.uuidBytes))
        #expect(pni.serviceIdFixedWidthBinary == Data([0x01] + Self.uuidBytes))
        #expect(try Pni.parseFrom(serviceIdString: pni.serviceIdString) == pni)
        #expect(try Pni.parseFrom(serviceIdBinary: pni.serviceIdBinary) == pni)
        #expect(try ServiceId.parseFrom(serviceIdBinary: pni.serviceIdBinary) is Pni)
        #expect(pni != Aci(fromUUID: Self.uuid), "the same UUID as ACI and PNI are different service ids")
        #expect(Aci(fromUUID: Self.uuid) < pni, "ACIs sort before PNIs (fixed-width order)")
    }

    @Test func malformedAndMismatchedInputsAreRefused() {
        for text in [
            "", "PNI:", "ACI:8c78cd2a-16ff-427d-83dc-1a5e36ce713d", "8c78cd2a16ff427d83dc1a5e36ce713d",
            "{8c78cd2a-16ff-427d-83dc-1a5e36ce713d}", "pni:8c78cd2a-16ff-427d-83dc-1a5e36ce713d",
        ] {
            #expect(throws: ServiceIdError.invalidServiceId) { try ServiceId.parseFrom(serviceIdString: text) }
        }
        for bytes in [[], Array(Self.uuidBytes.prefix(15)), [0x00] + Self.uuidBytes, [0x02] + Self.uuidBytes] {
            #expect(throws: ServiceIdError.invalidServiceId) { try ServiceId.parseFrom(serviceIdBinary: bytes) }
        }
        #expect(throws: ServiceIdError.wrongServiceIdKind) {
            try Aci.parseFrom(serviceIdString: "PNI:8c78cd2a-16ff-427d-83dc-1a5e36ce713d")
        }
        #expect(throws: ServiceIdError.wrongServiceIdKind) { try Pni.parseFrom(serviceIdBinary: Self.uuidBytes) }
    }

    @Test func addressesAreNamedByServiceId() throws {
        let pni = Pni(fromUUID: Self.uuid)
        let address = ProtocolAddress(pni, deviceId: 3)
        #expect(address.name == "PNI:8c78cd2a-16ff-427d-83dc-1a5e36ce713d" && address.deviceId == 3)
        #expect(address.serviceId == pni)
        #expect(try ProtocolAddress(name: address.name, deviceId: 3) == address)
        #expect(try ProtocolAddress(name: "+14155550101", deviceId: 1).serviceId == nil)
    }
}
