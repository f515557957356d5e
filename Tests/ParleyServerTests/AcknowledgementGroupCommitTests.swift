import Foundation
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// Acknowledgements deleted in shared transactions (both backends): each device's acknowledged envelopes are deleted
/// and counted for it, a guid of another device's envelope deletes nothing, and a device's deletes can be waited for.
@Suite struct AcknowledgementGroupCommitTests {
    @Test func concurrentAcknowledgementsDeleteExactlyTheirOwnDevicesEnvelopes() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let bob = try await client.register("bob")
            let carol = try await client.register("carol")
            var bobs: [StoredEnvelope] = []
            var carols: [StoredEnvelope] = []
            for tag in 0..<60 {
                let bobEnvelope = GroupCommitTests.envelope(to: bob, tag: tag)
                let carolEnvelope = GroupCommitTests.envelope(to: carol, tag: tag)
                _ = try await harness.dependencies.envelopeWriter.store(StoredSend(envelopes: [bobEnvelope, carolEnvelope]))
                bobs.append(bobEnvelope)
                carols.append(carolEnvelope)
            }
            let acknowledgements = harness.dependencies.acknowledgementWriter
            let (bobGuids, carolGuids) = (bobs.map(\.guid), carols.map(\.guid))
            // 30 deletes at once: Bob acknowledges his first 40 envelopes two at a time (and, in each, one of Carol's guids,
            // which must delete nothing); Carol her first 20, two at a time.
            let counts = await withTaskGroup(of: (String, Int).self) { group in
                for pair in 0..<20 {
                    group.addTask {
                        let guids = [bobGuids[2 * pair], bobGuids[2 * pair + 1], carolGuids[59 - pair]]
                        let deleted = try? await acknowledgements.delete(
                            DeviceAcknowledgements(accountId: bob.accountId, deviceId: 1, guids: guids))
                        return ("bob", deleted ?? -100)
                    }
                }
                for pair in 0..<10 {
                    group.addTask {
                        let guids = [carolGuids[2 * pair], carolGuids[2 * pair + 1]]
                        let deleted = try? await acknowledgements.delete(
                            DeviceAcknowledgements(accountId: carol.accountId, deviceId: 1, guids: guids))
                        return ("carol", deleted ?? -100)
                    }
                }
                var counts: [String: [Int]] = [:]
                for await (who, deleted) in group { counts[who, default: []].append(deleted) }
                return counts
            }
            #expect(counts["bob"] == Array(repeating: 2, count: 20))
            #expect(counts["carol"] == Array(repeating: 2, count: 10))
            await acknowledgements.settled(DeviceAddress(accountId: bob.accountId, deviceId: 1))
            let bobLeft = try await harness.store.pendingEnvelopes(accountId: bob.accountId, deviceId: 1, notBefore: 0, limit: 1_000)
            let carolLeft = try await harness.store.pendingEnvelopes(accountId: carol.accountId, deviceId: 1, notBefore: 0, limit: 1_000)
            #expect(bobLeft.map(\.guid) == bobs[40...].map(\.guid))
            #expect(carolLeft.map(\.guid) == carols[20...].map(\.guid))
            // Deleting again deletes nothing.
            #expect(
                try await acknowledgements.delete(DeviceAcknowledgements(accountId: bob.accountId, deviceId: 1, guids: [bobs[0].guid])) == 0
            )
            // The 31 deletes shared transactions.
            let (_, metrics) = try await client.call(.get, APIRoutes.metrics)
            let line = try #require(
                String(decoding: metrics, as: UTF8.self).split(separator: "\n")
                    .first { $0.hasPrefix("parley_acknowledgement_transactions_total ") })
            let transactions = try #require(Int(line.split(separator: " ").last ?? ""))
            #expect(transactions >= 2 && transactions < 31, "\(transactions) transactions for 31 deletes")
        }
    }
}
