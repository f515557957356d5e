import Synchronization

/// Acknowledgements read from a socket and not yet applied. The reader appends; the delivery loop takes them all
/// at once, so a burst of acks costs one store transaction instead of one each.
final class AckBuffer: Sendable {
    private let guids = Mutex<[String]>([])

    /// Adds an ack; returns `true` when the buffer was empty (the delivery loop must be woken).
    func append(_ guid: String) -> Bool {
        guids.withLock { guids in
            guids.append(guid)
            return guids.count == 1
        }
    }

    /// Everything buffered, emptying the buffer.
    func takeAll() -> [String] {
        guids.withLock { guids in
            defer { guids.removeAll(keepingCapacity: true) }
            return guids
        }
    }
}
