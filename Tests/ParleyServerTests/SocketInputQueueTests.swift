import Testing

@testable import ParleyServer

/// A socket whose device does not read holds a bounded queue: envelopes past the byte budget or the input count are
/// dropped (the store still has them, and the loop reads them back), the budget frees as the loop takes inputs, and a
/// close event is never lost to a full queue.
@Suite struct SocketInputQueueTests {
    private static func envelope(_ n: Int, bytes: Int) -> SocketInput {
        .hub(
            .envelope(
                StoredEnvelope(
                    guid: "guid-\(n)", accountId: "account", deviceId: 1, sourceAccountId: nil, sourceDeviceId: nil,
                    type: 6, content: [UInt8](repeating: 7, count: bytes), timestamp: 1, serverTimestamp: 1)))
    }

    private static func drain(_ queue: SocketInputQueue) async -> [SocketInput] {
        queue.finish()
        var taken: [SocketInput] = []
        for await input in queue.inputs {
            queue.taken(input)
            taken.append(input)
        }
        return taken
    }

    private static func guid(_ input: SocketInput) -> String? {
        if case .hub(.envelope(let envelope)) = input { envelope.guid } else { nil }
    }

    @Test func anEnvelopePastTheByteBudgetIsDroppedAndRemembered() async {
        let queue = SocketInputQueue(byteBudget: 1_000)
        for n in 0..<3 { queue.push(Self.envelope(n, bytes: 400)) }
        #expect(queue.queuedBytes == 800)
        #expect(queue.takeOverflow())
        #expect(!queue.takeOverflow())
        let taken = await Self.drain(queue)
        #expect(taken.compactMap(Self.guid) == ["guid-0", "guid-1"])
        if case .acks = taken.last {} else { Issue.record("a dropped envelope queues a wake-up, got \(String(describing: taken.last))") }
        #expect(queue.queuedBytes == 0)
    }

    @Test func theBudgetFreesAsTheLoopTakesInputs() async {
        let queue = SocketInputQueue(byteBudget: 1_000)
        queue.push(Self.envelope(0, bytes: 600))
        var iterator = queue.inputs.makeAsyncIterator()
        let first = await iterator.next()!
        queue.taken(first)
        queue.push(Self.envelope(1, bytes: 600))
        #expect(!queue.takeOverflow())
        #expect(queue.queuedBytes == 600)
        #expect(Self.guid(await iterator.next()!) == "guid-1")
    }

    @Test func theOldestIsDroppedPastTheCountAndItsBytesLeaveTheBudget() async {
        let queue = SocketInputQueue(byteBudget: .max)
        for n in 0...SocketInputQueue.capacity { queue.push(Self.envelope(n, bytes: 10)) }
        #expect(queue.takeOverflow())
        let taken = await Self.drain(queue)
        #expect(taken.count == SocketInputQueue.capacity)
        #expect(!taken.contains { Self.guid($0) == "guid-0" })
        #expect(queue.queuedBytes == 0)
    }

    @Test func aCloseEventIsNeverLostToAFullQueue() async {
        let queue = SocketInputQueue(byteBudget: .max)
        queue.push(.hub(.revoked))
        for _ in 0..<(2 * SocketInputQueue.capacity) { queue.push(.hub(.mailboxChanged)) }
        let taken = await Self.drain(queue)
        #expect(taken.count == SocketInputQueue.capacity)
        #expect(taken.contains { $0.closesSocket })
    }
}
