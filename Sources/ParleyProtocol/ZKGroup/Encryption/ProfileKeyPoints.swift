import Foundation

/// A profile key as two points, bound to its owner's ACI: M3 hashes the key and the ACI, M4 is the key itself through
/// one Elligator map with bit 0 and the top two bits cleared (decryption finds them again by trying all eight).
enum ProfileKeyPoints {
    static func m3(_ key: [UInt8], aciUUID: [UInt8]) -> RistrettoPoint {
        var sho = ShoHmacSha256(label: "Signal_ZKGroup_20200424_ProfileKeyAndUid_ProfileKey_CalcM3", data: key + aciUUID)
        return sho.pointSingleElligator()
    }

    static func m4(_ key: [UInt8]) -> RistrettoPoint {
        var bytes = key
        bytes[0] &= 0xFE
        bytes[31] &= 0x3F
        return RistrettoPoint.elligator(bytes)
    }
}
