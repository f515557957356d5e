/// The flow-control state of one socket: which envelopes are in flight and whether the store must be re-read.
struct DeliveryWindow {
    /// Most envelopes in flight at once.
    let capacity: Int
    /// Sent, not yet acknowledged.
    private(set) var inFlight: Set<String> = []
    /// Recently acknowledged guids, so a live push racing its own ack is not sent twice.
    private var acknowledged: Set<String> = []
    private var acknowledgedOrder: [String] = []
    /// The store may hold envelopes this socket has not sent.
    var needsRead = true
    /// `queue_empty` has been sent.
    var announcedQueueEmpty = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    var hasRoom: Bool { inFlight.count < capacity }

    /// Neither in flight nor just acknowledged.
    func isNew(_ guid: String) -> Bool { !inFlight.contains(guid) && !acknowledged.contains(guid) }

    /// Whether a live push of `guid` may go out now. While the session is behind (or the window is full) the
    /// envelope is left for the next store read instead, which keeps the mailbox order.
    mutating func acceptsLive(_ guid: String) -> Bool {
        guard !needsRead else { return false }
        guard hasRoom else {
            needsRead = true
            return false
        }
        return isNew(guid)
    }

    mutating func sent(_ guid: String) { inFlight.insert(guid) }

    mutating func acknowledged(_ guid: String) {
        inFlight.remove(guid)
        guard acknowledged.insert(guid).inserted else { return }
        acknowledgedOrder.append(guid)
        if acknowledgedOrder.count > 4 * capacity {
            let expired = acknowledgedOrder.prefix(2 * capacity)
            acknowledged.subtract(expired)
            acknowledgedOrder.removeFirst(2 * capacity)
        }
    }
}
