import Foundation
import GRDB
import ParleyProtocol
import Testing

@_spi(Inspection) @testable import ParleyKit

/// Sender keys other devices hand out are kept only while they can still be needed: a member device's newest few
/// distributions in a group, none of a removed member's, and no new one for a group this account left. Each may hold thousands
/// of skipped message keys, so a member handing out distribution after distribution could otherwise grow the database
/// without end.
@Suite struct SenderKeyRetentionTests {
    static let groupId = Data(repeating: 6, count: GroupContext.idLength)

    static func group(revision: UInt32, members: [String]) -> GroupContext {
        GroupContext(id: groupId, revision: revision, state: GroupState(title: "g", members: members))
    }

    /// Hands this device (`me`) a sender key of `carol`'s device 1 for a new distribution; what taking it did.
    @discardableResult
    static func handOut(from carol: InMemorySignalProtocolStore, _ db: Database) throws -> ReceiveOutcome {
        let sender = try ProtocolAddress(name: "carol", deviceId: 1)
        let distributionId = UUID()
        let message = try SenderKeyDistributionMessage(from: sender, distributionId: distributionId, store: carol, context: NullContext())
        let distribution = SenderKeyDistribution(groupId: groupId, distributionId: distributionId, message: message.serialize())
        return try MessageReceiver.accept(distribution, from: sender, store: DatabaseProtocolStore(now: { 1_000_000 }), db)
    }

    static func keysOf(_ account: String, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sender_keys WHERE address = ?", arguments: [account]) ?? 0
    }

    /// A group of this account (`me`), Carol and Dave, made by Dave, and Carol's protocol store.
    static func inGroup(_ name: String, _ body: (Database, InMemorySignalProtocolStore) throws -> Void) throws {
        let database = try HostilePeerTests.database(name)
        let carol = InMemorySignalProtocolStore(identity: .generate(), registrationId: 7)
        try database.write { db in
            _ = try GroupChanges.apply(
                Self.group(revision: 1, members: ["me", "carol", "dave"]),
                from: HostilePeerTests.origin("dave", at: 10, peer: ""), db)
            try body(db, carol)
        }
    }

    @Test func aMemberDeviceKeepsItsNewestDistributionsAndARemovedMemberNone() throws {
        try Self.inGroup("sender-keys") { db, carol in
            for _ in 0..<(SenderKeyChainsTable.maximumDistributionsPerDevice + 3) { #expect(try Self.handOut(from: carol, db) == .applied) }
            #expect(try Self.keysOf("carol", db) == SenderKeyChainsTable.maximumDistributionsPerDevice)
            let chains = try Int.fetchOne(
                db, sql: "SELECT count(DISTINCT distribution_id) FROM sender_key_chains WHERE account_id = 'carol'")
            #expect(chains == SenderKeyChainsTable.maximumDistributionsPerDevice)

            _ = try GroupChanges.apply(
                Self.group(revision: 2, members: ["me", "dave"]), from: HostilePeerTests.origin("dave", at: 20, peer: ""), db)
            #expect(try Self.keysOf("carol", db) == 0)
        }
    }

    /// Out of a group, this device takes no new sender key for it. The ones it holds stay (a member who has not heard
    /// of the removal yet still sends with them, and its messages are refused as the group's, not recorded as
    /// undecryptable), within the bound above.
    @Test func aGroupThisAccountLeftTakesNoNewSenderKey() throws {
        try Self.inGroup("sender-keys-left") { db, carol in
            #expect(try Self.handOut(from: carol, db) == .applied)
            // Dave removes this account.
            _ = try GroupChanges.apply(
                Self.group(revision: 2, members: ["carol", "dave"]), from: HostilePeerTests.origin("dave", at: 20, peer: ""), db)
            guard case .rejected = try Self.handOut(from: carol, db) else {
                Issue.record("a key for a group left was taken")
                return
            }
            #expect(try Self.keysOf("carol", db) == 1)
        }
    }
}
