import Foundation
import HummingbirdTesting
import ParleyAPI
import ParleyServer
import Testing

/// Group commit: concurrent sends share write transactions, each answered only after its batch committed, and one
/// failing send never takes the others of its batch down (both backends).
@Suite struct GroupCommitTests {
    static func envelope(to member: Member, device: UInt32 = 1, tag: Int) -> StoredEnvelope {
        StoredEnvelope(
            guid: UUID().uuidString.lowercased(), accountId: member.accountId, deviceId: device,
            sourceAccountId: member.accountId, sourceDeviceId: 1, type: 2, content: Array("\(tag)".utf8),
            timestamp: UInt64(tag), serverTimestamp: 1_000 + UInt64(tag))
    }

    @Test func concurrentSendsAreAllStoredOnceAndAFailingOneFailsAlone() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let bob = try await client.register("bob")
            let writer = harness.dependencies.envelopeWriter
            #expect(writer.isEnabled)
            // 200 sends at once, every 20th addressed to a device that does not exist (the mailbox's foreign key refuses
            // it): those fail, every other one is stored exactly once.
            let results = await withTaskGroup(of: (Int, Bool).self) { group in
                for tag in 0..<200 {
                    group.addTask {
                        let poisoned = tag % 20 == 7
                        do {
                            _ = try await writer.store(StoredSend(envelopes: [Self.envelope(to: bob, device: poisoned ? 42 : 1, tag: tag)]))
                            return (tag, true)
                        } catch {
                            return (tag, false)
                        }
                    }
                }
                var results: [Int: Bool] = [:]
                for await (tag, stored) in group { results[tag] = stored }
                return results
            }
            #expect(results.filter { !$0.value }.keys.sorted() == Array(stride(from: 7, to: 200, by: 20)))
            let page = try await harness.store.pendingEnvelopes(accountId: bob.accountId, deviceId: 1, notBefore: 0, limit: 1_000)
            let stored = page.map { String(decoding: $0.content, as: UTF8.self) }
            let expected = (0..<200).filter { $0 % 20 != 7 }.map(String.init)
            #expect(stored.sorted() == expected.sorted())
            #expect(Set(stored).count == stored.count, "each stored once")
        }
    }

    @Test func repeatedKeysAreStoredOnceInAndAcrossBatchesAndAFailedSendKeepsNoKey() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let bob = try await client.register("bob")
            let writer = harness.dependencies.envelopeWriter
            func send(_ tag: Int, key: String, device: UInt32 = 1) -> StoredSend {
                StoredSend(
                    envelopes: [Self.envelope(to: bob, device: device, tag: tag)],
                    idempotency: IdempotencyRecord(scope: "device:test.1", key: key, fingerprint: "f", serverTimestamp: 1))
            }
            // 100 sends of 10 keys at once, and one to a missing device (its batch fails and is retried send by send).
            let results = await withTaskGroup(of: (Int, Bool?).self) { group in
                for tag in 0..<100 { group.addTask { (tag, try? await writer.store(send(tag, key: "k\(tag % 10)"))) } }
                group.addTask { (100, try? await writer.store(send(100, key: "poisoned", device: 42))) }
                return await group.reduce(into: [Int: Bool?]()) { $0[$1.0] = $1.1 }
            }
            #expect(results.values.filter { $0 == true }.count == 10, "one send per key stored")
            #expect(results[100]! == nil, "the send to a missing device failed")
            let page = try await harness.store.pendingEnvelopes(accountId: bob.accountId, deviceId: 1, notBefore: 0, limit: 1_000)
            #expect(page.count == 10)
            #expect(Set(page.map { Int(String(decoding: $0.content, as: UTF8.self))! % 10 }) == Set(0..<10))
            #expect(try await writer.store(send(101, key: "poisoned")), "a failed send's key stays free")
            #expect(try await !writer.store(send(102, key: "k3")))
        }
    }

    @Test func concurrentSendsShareTransactions() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let bob = try await client.register("bob")
            let writer = harness.dependencies.envelopeWriter
            try await withThrowingTaskGroup(of: Void.self) { group in
                for tag in 0..<200 {
                    group.addTask { _ = try await writer.store(StoredSend(envelopes: [Self.envelope(to: bob, tag: tag)])) }
                }
                try await group.waitForAll()
            }
            let page = try await harness.store.pendingEnvelopes(accountId: bob.accountId, deviceId: 1, notBefore: 0, limit: 1_000)
            #expect(page.count == 200)
            let (_, metrics) = try await client.call(.get, APIRoutes.metrics)
            let text = String(decoding: metrics, as: UTF8.self)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("parley_envelope_transactions_total ") })
            let transactions = try #require(Int(line.split(separator: " ").last ?? ""))
            #expect(transactions >= 1 && transactions < 200, "\(transactions) transactions for 200 concurrent sends")
        }
    }

    @Test func sendsOverHTTPFromManySendersAllArriveInEachSendersOrder() async throws {
        try await ServerHarness().runLive { client in
            let bob = try await client.register("bob")
            var senders: [Member] = []
            for index in 0..<4 { senders.append(try await client.register("sender\(index)")) }
            let registration = try MessageTests.registrationId(of: bob)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (lane, sender) in senders.enumerated() {
                    group.addTask {
                        for index in 0..<25 {
                            let request = SendMessagesRequest(
                                messages: [MessageTests.message(1, registrationId: registration, content: Array("\(lane):\(index)".utf8))],
                                timestamp: UInt64(index + 1))
                            let (status, _) = try await client.call(
                                .put, APIRoutes.messages(to: bob.accountId), headers: sender.headers, json: request)
                            #expect(status == .ok)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let (_, body) = try await client.call(.get, APIRoutes.mailbox, headers: bob.headers)
            let first = try JSONDecoder().decode(EnvelopeListResponse.self, from: body)
            #expect(first.messages.count == 100)
            let texts = first.messages.map { String(decoding: Data(base64Encoded: $0.content) ?? Data(), as: UTF8.self) }
            for lane in 0..<4 {
                let order = texts.filter { $0.hasPrefix("\(lane):") }.compactMap { Int($0.split(separator: ":")[1]) }
                #expect(order == Array(0..<25), "sender \(lane)'s messages in the order it sent them")
            }
        }
    }
}
