import Foundation

/// A group's distribution id as sender-key messages carry it: the UUID's 16 bytes.
enum DistributionId {
    static func bytes(_ id: UUID) -> Data { withUnsafeBytes(of: id.uuid) { Data($0) } }

    /// - Throws: ``SignalError/protobufError(_:)`` unless there are exactly 16 bytes.
    static func parse(_ bytes: Data) throws -> UUID {
        guard bytes.count == 16 else { throw SignalError.protobufError("distribution id of \(bytes.count) bytes") }
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
