import Foundation
import HummingbirdTesting
import ParleyAPI
import Synchronization
import Testing

@testable import ParleyServer

/// ``AnswerSlots``, the bound on a socket's answers in flight: taking waits while every slot is taken, and a slot
/// given back goes to the waiting reader; a socket whose requests outnumber its slots still answers each one.
@Suite struct AnswerSlotsTests {
    @Test func takingWaitsUntilASlotIsGivenBack() async throws {
        let slots = AnswerSlots(count: 2)
        #expect(slots.tryTake() && slots.tryTake())
        #expect(!slots.tryTake())
        let returned = Mutex(false)
        let taken = Task {
            await slots.take()
            returned.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!returned.withLock { $0 }, "take() returned with no slot free")
        slots.giveBack()  // to the waiting taker, not to the free count
        await taken.value
        #expect(returned.withLock { $0 })
        #expect(!slots.tryTake())
        slots.giveBack()
        #expect(slots.tryTake())
    }

    @Test func atLeastOneSlotWhateverTheLimit() {
        let slots = AnswerSlots(count: 0)
        #expect(slots.tryTake())
        #expect(!slots.tryTake())
    }

    @Test func fortyPipelinedRequestsOverTwoSlotsAreEachAnsweredOnce() async throws {
        var limits = ServerLimits()
        limits.socketRequestsInFlight = 2
        try await ServerHarness(limits: limits).runLive { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            let bobRegistration = try MessageTests.registrationId(of: bob)
            try await client.withSocket(alice) { socket in
                _ = try await socket.expect(.queueEmpty)
                for id: UInt64 in 1...40 {
                    try await socket.send(
                        try SocketRequestTests.sendFrame(
                            id: id, to: bob, [MessageTests.message(1, registrationId: bobRegistration, content: [UInt8(id)])], timestamp: id
                        ))
                }
                var answered: [UInt64] = []
                for _ in 1...40 {
                    let response = try await SocketRequestTests.response(&socket)
                    #expect(response.status == 200)
                    answered.append(response.id)
                }
                #expect(answered.sorted() == Array(1...40))
            }
        }
    }
}
