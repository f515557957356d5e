import Synchronization

/// Acknowledgements read from a socket and not yet applied. The reader appends; the delivery loop takes them all
/// at once, so a burst of acks costs one store transaction instead of one each. At most ``capacity`` wait: a client
/// acknowledges at most the envelopes in flight (``ServerLimits/socketWindow``), so more is a flood, and acks past the
/// cap are dropped (their envelopes, if any, stay in the mailbox and come again on the next connection).
final class AckBuffer: Sendable {
    /// Most acknowledgements waiting at once.
    static let capacity = 1_000
    private let guids = Mutex<[String]>([])

    /// Adds an ack; returns `true` when the buffer was empty (the delivery loop must be woken).
    func append(_ guid: String) -> Bool {
        guids.withLock { guids in
            guard guids.count < Self.capacity else { return false }
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
