import Foundation

/// A service id as two points: M1 hashes its binary form (so the kind counts), M2 is its UUID through ``Lizard``.
enum ServiceIdPoints {
    static func m1(_ serviceId: ServiceId) -> RistrettoPoint {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_UID_CalcM1", data: [UInt8](serviceId.serviceIdBinary))
        return sho.point()
    }

    static func m2(_ serviceId: ServiceId) -> RistrettoPoint {
        Lizard.encode([UInt8](serviceId.serviceIdFixedWidthBinary.dropFirst()))
    }
}
