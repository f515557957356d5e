import Testing

@testable import ParleyLocalService

/// The cap on long-lived subscribers: places run out at the limit and come back when a lease is gone, however it goes.
@Suite struct SubscriberSlotsTests {
    @Test func aLeaseHoldsItsPlaceUntilItIsGone() {
        let slots = SubscriberSlots(limit: 2)
        var first = slots.lease()
        let second = slots.lease()
        #expect(first != nil && second != nil && slots.isFull)
        #expect(slots.lease() == nil, "a third place was given")
        // A response dropped without ever being written drops its lease with it.
        first = nil
        #expect(!slots.isFull)
        #expect(slots.lease() != nil)
        withExtendedLifetime(second) {}
    }

    @Test func takenPlacesComeBackWhenReleased() {
        let slots = SubscriberSlots(limit: 1)
        #expect(slots.take() && !slots.take())
        slots.release()
        #expect(slots.take())
    }
}
