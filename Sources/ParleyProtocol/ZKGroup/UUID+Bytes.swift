import Foundation

extension UUID {
    /// The UUID whose 16 bytes, in order, are `bytes` (zkgroup keeps raw UUIDs as bytes).
    init(zkgroupBytes bytes: [UInt8]) {
        precondition(bytes.count == 16, "a UUID is 16 bytes")
        self.init(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }
}
