import NIOCore
import NIOPosix
import Testing

@testable import ParleyLocalService

/// A long response's hold: its connection is closed when a write (the response head included) waits past the limit,
/// and nothing is closed once the hold is gone; its place comes back with it.
@Suite struct StreamHoldTests {
    /// A real loopback TCP connection: the client's channel (the hold's to close) and the server's.
    static func connection(on group: MultiThreadedEventLoopGroup) async throws -> (client: any Channel, server: any Channel) {
        let accepted = group.next().makePromise(of: (any Channel).self)
        let listener = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                accepted.succeed(channel)
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: group).connect(to: try #require(listener.localAddress)).get()
        let server = try await accepted.futureResult.get()
        try await listener.close()
        return (client, server)
    }

    @Test func aHeadNeverWrittenClosesTheConnectionAndTheDroppedHoldGivesItsPlaceBack() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (client, server) = try await Self.connection(on: group)
        let slots = SubscriberSlots(limit: 1)
        var hold: StreamHold? = StreamHold(
            try #require(slots.lease()), limit: .milliseconds(200), closing: server,
            waitingForHead: true)
        #expect(slots.isFull)
        // The body never runs (its head write hangs): the watchdog closes the connection, and the client sees it.
        try await client.closeFuture.get()
        #expect(hold != nil && !server.isActive)
        // The response dropped, its place comes back.
        hold = nil
        #expect(!slots.isFull)
        try await group.shutdownGracefully()
    }

    @Test func aHoldGoneOrTakingItsWritesClosesNothing() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (client, server) = try await Self.connection(on: group)
        let slots = SubscriberSlots(limit: 2)
        // A body that ran and wrote in time.
        // (A limit far above what a busy machine adds to a 10 ms write.)
        let taking = StreamHold(try #require(slots.lease()), limit: .seconds(60), closing: server, waitingForHead: true)
        taking.watch.stopWaiting()
        for _ in 0..<5 { try await taking.watch.write { try await Task.sleep(for: .milliseconds(10)) } }
        // A response dropped before its body ran: its watchdog (which would close the connection after 1 s) goes with it.
        var dropped: StreamHold? = StreamHold(
            try #require(slots.lease()), limit: .seconds(1), closing: server,
            waitingForHead: true)
        dropped = nil
        try await Task.sleep(for: .seconds(3))
        #expect(server.isActive && client.isActive)
        withExtendedLifetime(taking) {}
        _ = dropped
        try await client.close()
        try await group.shutdownGracefully()
    }
}
