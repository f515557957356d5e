import Foundation
import ParleyProtocol

/// Typed access to the fields of one JSON request; every failure is a `bad_request`.
struct PeerRequest {
    let fields: [String: Any]

    var command: String? { fields["cmd"] as? String }

    func has(_ key: String) -> Bool { fields[key] != nil && !(fields[key] is NSNull) }

    func string(_ key: String) throws -> String {
        guard let value = fields[key] as? String else { throw PeerFailure.badRequest("\(key) must be a string") }
        return value
    }

    func optionalString(_ key: String) throws -> String? { has(key) ? try string(key) : nil }

    func int(_ key: String) throws -> Int {
        guard let value = fields[key] as? Int else { throw PeerFailure.badRequest("\(key) must be an integer") }
        return value
    }

    func optionalInt(_ key: String) throws -> Int? { has(key) ? try int(key) : nil }

    func uint32(_ key: String) throws -> UInt32 {
        guard let value = UInt32(exactly: try int(key)) else { throw PeerFailure.badRequest("\(key) is out of range") }
        return value
    }

    func optionalUInt32(_ key: String) throws -> UInt32? { has(key) ? try uint32(key) : nil }

    func bool(_ key: String) throws -> Bool {
        guard has(key) else { return false }
        guard let value = fields[key] as? Bool else { throw PeerFailure.badRequest("\(key) must be a boolean") }
        return value
    }

    func bytes(_ key: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: try string(key)) else { throw PeerFailure.badRequest("\(key) is not base64") }
        return Array(data)
    }

    func optionalBytes(_ key: String) throws -> [UInt8]? { has(key) ? try bytes(key) : nil }

    func object(_ key: String) throws -> PeerRequest {
        guard let value = fields[key] as? [String: Any] else { throw PeerFailure.badRequest("\(key) must be an object") }
        return PeerRequest(fields: value)
    }

    func address(_ key: String) throws -> ProtocolAddress {
        let object = try object(key)
        guard let device = Int32(exactly: try object.int("device_id")) else { throw PeerFailure.badRequest("device_id out of range") }
        return try ProtocolAddress(name: try object.string("name"), deviceId: UInt32(bitPattern: device))
    }
}
