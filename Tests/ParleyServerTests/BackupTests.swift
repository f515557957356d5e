import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import ParleyProtocol
import ParleyServer
import Testing

/// The PIN backup routes over HTTP: element checks, 404s that reveal nothing, who may store and delete, the guess
/// counter and the wipe, the exact per-account window, and the device reset a restore ends with.
@Suite struct BackupTests {
    /// The ristretto255 generator (RFC 9496, appendix A.1): a valid element to send as a blinded PIN.
    static let generator: [UInt8] = {
        let hex = Array("e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76".utf8)
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
    }()
    static let element = Data(generator).base64EncodedString()
    static let verifier = [UInt8](repeating: 7, count: 32)
    static let kdf = BackupKDFParameters.argon2id(salt: [UInt8](repeating: 1, count: 16), opsLimit: 1, memLimit: 8192)

    static func settings(maximumFailures: Int = 10, clock: ManualClock? = nil) -> BackupSettings {
        var settings = BackupSettings(oprfKey: [UInt8](repeating: 9, count: 32))
        settings.maximumFailures = maximumFailures
        if let clock { settings.clock = { clock.now } }
        return settings
    }

    static func store(_ client: some TestClientProtocol, for member: Member, blob: [UInt8] = [1, 2, 3]) async throws {
        let request = StoreBackupRequest(blob: Data(blob).base64EncodedString(), kdf: kdf, verifier: Data(verifier).base64EncodedString())
        let (status, body) = try await client.call(.put, BackupRoutes.backup, headers: member.headers, json: request)
        guard status == .noContent else { throw HarnessError.unexpected(status, body) }
    }

    /// One unauthenticated guess against `username`'s backup.
    static func guess(_ client: some TestClientProtocol, _ username: String, element: String = element) async throws -> (
        HTTPResponse.Status, Data
    ) {
        try await client.call(.post, BackupRoutes.evaluate(account: username), json: BackupEvaluationRequest(blindedElement: element))
    }

    /// A restore attempt with `verifier`, after a guess of its own unless `token` is given (a guess that fails is
    /// the answer).
    static func restore(
        _ client: some TestClientProtocol, _ username: String, verifier: [UInt8],
        token: String? = nil
    ) async throws -> (HTTPResponse.Status, Data) {
        var attempt = token
        if attempt == nil {
            let (status, body) = try await guess(client, username)
            guard status == .ok else { return (status, body) }
            attempt = try JSONDecoder().decode(BackupEvaluationResponse.self, from: body).attemptToken
        }
        return try await client.call(
            .post, BackupRoutes.restore(account: username),
            json: BackupRestoreRequest(verifier: Data(verifier).base64EncodedString(), attemptToken: attempt ?? ""))
    }

    static let unknownToken = Data(repeating: 5, count: 32).base64EncodedString()

    static func status(_ client: some TestClientProtocol, _ member: Member) async throws -> BackupStatusResponse {
        let (status, body) = try await client.call(.get, BackupRoutes.backup, headers: member.headers)
        guard status == .ok else { throw HarnessError.unexpected(status, body) }
        return try JSONDecoder().decode(BackupStatusResponse.self, from: body)
    }

    static func errorBody(_ body: Data) throws -> APIErrorBody { try JSONDecoder().decode(APIErrorBody.self, from: body) }

    @Test func malformedElementsAreRefusedAndCountNothing() async throws {
        try await ServerHarness(backup: Self.settings()).run { client in
            let alice = try await client.register("alice")
            try await Self.store(client, for: alice)
            let malformed = [
                "not base64!",
                Data([UInt8](repeating: 0xff, count: 32)).base64EncodedString(),  // not a canonical field element
                Data([1] + [UInt8](repeating: 0, count: 31)).base64EncodedString(),  // a negative field element
                Data([UInt8](repeating: 0, count: 32)).base64EncodedString(),  // the identity: k·B would be too
                Data(Self.generator.prefix(31)).base64EncodedString(),
                Data(Self.generator + [0]).base64EncodedString(),
            ]
            for element in malformed {
                let (status, body) = try await Self.guess(client, "alice", element: element)
                #expect(status == .badRequest, "\(element)")
                #expect(try Self.errorBody(body).code == "bad_request")
                let own = try await client.call(
                    .post, BackupRoutes.evaluate, headers: alice.headers,
                    json: BackupEvaluationRequest(blindedElement: element))
                #expect(own.0 == .badRequest)
            }
            #expect(try await client.call(.post, BackupRoutes.evaluate(account: "alice"), raw: "{}").0 == .badRequest)
            #expect(try await Self.restore(client, "alice", verifier: [1, 2, 3], token: Self.unknownToken).0 == .badRequest)
            #expect(try await Self.status(client, alice).failures == 0)
        }
    }

    @Test func aRegistrationResetClosesTheOldInstallationsSocket() async throws {
        try await ServerHarness().runLive { client in
            let alice = try await client.register("alice")
            try await client.withSocket(alice, seconds: 60) { socket in
                _ = try await socket.expect(.queueEmpty)
                let reset = DeviceRegistrationRequest(registrationId: 77, password: Data(repeating: 3, count: 24).base64EncodedString())
                #expect(try await client.call(.put, APIRoutes.deviceRegistration, headers: alice.headers, json: reset).0 == .noContent)
                let frame = try await socket.next()
                #expect(frame == nil, "the old installation's socket stays open")
            }
        }
    }

    @Test func aProcessHoldingAnotherKeyFileCountsNothing() async throws {
        let harness = try ServerHarness(backup: Self.settings())
        let store = harness.store
        try await harness.run { client in
            let alice = try await client.register("alice")
            try await Self.store(client, for: alice)
            let otherKey = BackupOPRFKey(serverKey: [UInt8](repeating: 3, count: 32)).keyId
            #expect(
                try await store.countBackupAttempt(
                    accountId: alice.accountId, maximumFailures: 10, keyId: otherKey,
                    attemptTokenHash: [UInt8](repeating: 1, count: 32)) == .keyMismatch)
            #expect(try await Self.status(client, alice).failures == 0)
        }
    }

    /// The routes do not tell registered usernames from others: an unknown username, a registered one without a
    /// backup (in another case) and one longer than any username get the same answers, step for step — malformed
    /// bodies 400, five guesses and five restores 404, the sixth of each 429.
    @Test func unknownUsernamesAndMissingBackupsAreAnsweredAlike() async throws {
        try await ServerHarness(backup: Self.settings()).run { client in
            _ = try await client.register("alice")
            var answers: [[HTTPResponse.Status]] = []
            for username in ["nobody", "ALICE", String(repeating: "x", count: 65)] {
                var statuses: [HTTPResponse.Status] = []
                // Not base64 of 32 bytes; 32 bytes that are not a ristretto255 element; a body that is not the request.
                statuses.append(try await Self.guess(client, username, element: "AAAA").0)
                statuses.append(try await Self.guess(client, username, element: Data(repeating: 0xff, count: 32).base64EncodedString()).0)
                statuses.append(try await client.call(.post, BackupRoutes.evaluate(account: username), raw: "{}").0)
                statuses.append(
                    try await client.call(
                        .post, BackupRoutes.restore(account: username),
                        json: BackupRestoreRequest(verifier: "AAAA", attemptToken: Self.unknownToken)
                    ).0)
                for _ in 0..<6 {
                    let (status, body) = try await Self.guess(client, username)
                    statuses.append(status)
                    if status == .notFound { #expect(try Self.errorBody(body).code == "not_found") }
                }
                for _ in 0..<6 {
                    statuses.append(try await Self.restore(client, username, verifier: Self.verifier, token: Self.unknownToken).0)
                }
                answers.append(statuses)
            }
            let expected: [HTTPResponse.Status] =
                [.badRequest, .badRequest, .badRequest, .badRequest]
                + Array(repeating: .notFound, count: 5) + [.tooManyRequests] + Array(repeating: .notFound, count: 5) + [.tooManyRequests]
            #expect(answers.allSatisfy { $0 == expected }, "\(answers)")
        }
    }

    @Test func onlyThePrimaryDeviceStoresAndDeletes() async throws {
        try await ServerHarness(backup: Self.settings()).run { client in
            let alice = try await client.register("alice")
            let store = StoreBackupRequest(blob: "AQID", kdf: Self.kdf, verifier: Data(Self.verifier).base64EncodedString())
            #expect(try await client.call(.put, BackupRoutes.backup, json: store).0 == .unauthorized)
            #expect(try await client.call(.get, BackupRoutes.backup).0 == .unauthorized)
            #expect(try await client.call(.delete, BackupRoutes.backup).0 == .unauthorized)
            #expect(
                try await client.call(.post, BackupRoutes.evaluate, json: BackupEvaluationRequest(blindedElement: Self.element)).0
                    == .unauthorized)

            let (request, password) = DeviceTests.linkRequest(code: try await DeviceTests.issueCode(client, for: alice))
            let (_, linkedBody) = try await client.call(.put, APIRoutes.linkDevice, json: request)
            let linked = try JSONDecoder().decode(RegisterAccountResponse.self, from: linkedBody)
            let laptop = Member(
                accountId: alice.accountId, deviceId: linked.deviceId, password: password, store: InMemorySignalProtocolStore())
            #expect(try await client.call(.put, BackupRoutes.backup, headers: laptop.headers, json: store).0 == .forbidden)
            #expect(
                try await client.call(
                    .post, BackupRoutes.evaluate, headers: laptop.headers,
                    json: BackupEvaluationRequest(blindedElement: Self.element)
                ).0 == .forbidden)
            #expect(try await client.call(.delete, BackupRoutes.backup, headers: laptop.headers).0 == .forbidden)

            try await Self.store(client, for: alice)
            #expect(try await Self.status(client, laptop).exists)
            #expect(try await client.call(.delete, BackupRoutes.backup, headers: alice.headers).0 == .noContent)
            #expect(try await Self.status(client, alice) == BackupStatusResponse(exists: false))
        }
    }

    @Test func storedBackupsAreCheckedAndBounded() async throws {
        try await ServerHarness(backup: Self.settings()).run { client in
            let alice = try await client.register("alice")
            let verifier = Data(Self.verifier).base64EncodedString()
            func put(_ request: StoreBackupRequest) async throws -> HTTPResponse.Status {
                try await client.call(.put, BackupRoutes.backup, headers: alice.headers, json: request).0
            }
            let oversized = Data(repeating: 1, count: 64 * 1024 + 1).base64EncodedString()
            #expect(try await put(StoreBackupRequest(blob: oversized, kdf: Self.kdf, verifier: verifier)) == .contentTooLarge)
            #expect(try await put(StoreBackupRequest(blob: "", kdf: Self.kdf, verifier: verifier)) == .badRequest)
            #expect(try await put(StoreBackupRequest(blob: "AQID", kdf: Self.kdf, verifier: "AQID")) == .badRequest)
            let costly = BackupKDFParameters.argon2id(salt: [UInt8](repeating: 1, count: 16), opsLimit: 1, memLimit: 1 << 31)
            #expect(try await put(StoreBackupRequest(blob: "AQID", kdf: costly, verifier: verifier)) == .badRequest)
            let shortSalt = BackupKDFParameters.pbkdf2SHA256(salt: [1, 2, 3], iterations: 100_000)
            #expect(try await put(StoreBackupRequest(blob: "AQID", kdf: shortSalt, verifier: verifier)) == .badRequest)
            let unknown = #"{"blob":"AQID","verifier":"\#(verifier)","kdf":{"algorithm":"md5","salt":"AAAAAAAAAAAAAAAAAAAAAA=="}}"#
            #expect(try await client.call(.put, BackupRoutes.backup, headers: alice.headers, raw: unknown).0 == .badRequest)
            #expect(
                try await client.call(
                    .put, BackupRoutes.backup, headers: alice.headers,
                    raw: String(repeating: "x", count: 200 * 1024)
                ).0 == .contentTooLarge)
            #expect(try await Self.status(client, alice).exists == false)
        }
    }

    @Test func everyEvaluationCountsAndTheMaximumWipes() async throws {
        try await ServerHarness(backup: Self.settings(maximumFailures: 3)).run { client in
            let alice = try await client.register("alice")
            try await Self.store(client, for: alice)
            var answers: [BackupEvaluationResponse] = []
            for _ in 0..<3 {
                let (status, body) = try await Self.guess(client, "alice")
                #expect(status == .ok)
                answers.append(try JSONDecoder().decode(BackupEvaluationResponse.self, from: body))
            }
            #expect(answers.map(\.attemptsLeft) == [2, 1, 0])
            #expect(answers.allSatisfy { $0.kdf == Self.kdf })
            #expect(Set(answers.map(\.evaluatedElement)).count == 1, "the PRF is deterministic")
            #expect(answers[0].evaluatedElement != Self.element)
            // The primary device's own evaluation uses the same account key, and counts nothing.
            let (_, own) = try await client.call(
                .post, BackupRoutes.evaluate, headers: alice.headers,
                json: BackupEvaluationRequest(blindedElement: Self.element))
            #expect(
                try JSONDecoder().decode(BackupEvaluationResponse.self, from: own)
                    == BackupEvaluationResponse(evaluatedElement: answers[0].evaluatedElement))
            #expect(try await Self.status(client, alice).failures == 3)

            let (status, body) = try await Self.guess(client, "alice")
            let wiped = try Self.errorBody(body)
            #expect(status == .gone && wiped.code == "backup_wiped")
            #expect(try await Self.status(client, alice).exists == false)
            #expect(try await Self.guess(client, "alice").0 == .notFound)
        }
    }

    @Test func theRightVerifierResetsTheCountAndTheLastWrongOneWipes() async throws {
        try await ServerHarness(backup: Self.settings(maximumFailures: 2)).run { client in
            let alice = try await client.register("alice")
            try await Self.store(client, for: alice, blob: [9, 8, 7])
            let wrong = [UInt8](repeating: 8, count: 32)
            let (guessed, answer) = try await Self.guess(client, "alice")
            #expect(guessed == .ok)
            let token = try #require(try JSONDecoder().decode(BackupEvaluationResponse.self, from: answer).attemptToken)
            let (status, body) = try await Self.restore(client, "alice", verifier: wrong, token: token)
            #expect(status == .forbidden)
            // One comparison per counted guess: the token is spent, and a restore without one compares nothing.
            let (reused, reuseBody) = try await Self.restore(client, "alice", verifier: Self.verifier, token: token)
            #expect(try reused == .conflict && Self.errorBody(reuseBody).code == "no_attempt")
            #expect(try await Self.restore(client, "alice", verifier: Self.verifier, token: Self.unknownToken).0 == .conflict)
            let refusal = try Self.errorBody(body)
            #expect(refusal.code == "wrong_pin" && refusal.attemptsLeft == 1)

            let (restored, blob) = try await Self.restore(client, "alice", verifier: Self.verifier)
            #expect(restored == .ok)
            #expect(try JSONDecoder().decode(BackupRestoreResponse.self, from: blob) == BackupRestoreResponse(blob: "CQgH"))
            #expect(try await Self.status(client, alice).failures == 0)

            _ = try await Self.guess(client, "alice")
            let (lastStatus, lastBody) = try await Self.restore(client, "alice", verifier: wrong)
            #expect(lastStatus == .forbidden)
            let last = try Self.errorBody(lastBody)
            #expect(last.attemptsLeft == 0 && last.message.contains("deleted"))
            #expect(try await Self.status(client, alice).exists == false)
            #expect(try await Self.restore(client, "alice", verifier: Self.verifier).0 == .notFound)
        }
    }

    @Test func fiveGuessesPerFiveMinutesPerAccountExactly() async throws {
        let clock = ManualClock()
        try await ServerHarness(backup: Self.settings(maximumFailures: 100, clock: clock)).run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await Self.store(client, for: alice)
            try await Self.store(client, for: bob)
            for _ in 0..<5 { #expect(try await Self.guess(client, "alice").0 == .ok) }
            func refused() async throws -> (HTTPResponse.Status, String?, Int?) {
                try await client.execute(
                    uri: BackupRoutes.evaluate(account: "alice"), method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(bytes: try JSONEncoder().encode(BackupEvaluationRequest(blindedElement: Self.element)))
                ) { response in
                    (
                        response.status, response.headers[.retryAfter],
                        try? JSONDecoder().decode(APIErrorBody.self, from: Data(response.body.readableBytesView)).retryAfter
                    )
                }
            }
            let (status, header, retryAfter) = try await refused()
            #expect(status == .tooManyRequests && header == "300" && retryAfter == 300)
            #expect(try await Self.guess(client, "bob").0 == .ok, "another account has its own window")
            clock.advance(by: 299_999)
            #expect(try await refused().1 == "1")
            clock.advance(by: 1)
            #expect(try await Self.guess(client, "alice").0 == .ok)
            #expect(try await Self.status(client, alice).failures == 6, "refused guesses are not counted")

            // Restore attempts have their own window, counted whether or not they carry an open attempt.
            for _ in 0..<5 {
                #expect(
                    try await Self.restore(client, "alice", verifier: [UInt8](repeating: 8, count: 32), token: Self.unknownToken).0
                        == .conflict)
            }
            #expect(try await Self.restore(client, "alice", verifier: Self.verifier, token: Self.unknownToken).0 == .tooManyRequests)
        }
    }

    @Test func concurrentGuessesAreEachCountedOnce() async throws {
        try await ServerHarness(backup: Self.settings(maximumFailures: 100)).run { client in
            let alice = try await client.register("alice")
            try await Self.store(client, for: alice)
            let left = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        let (_, body) = try await Self.guess(client, "alice")
                        return try JSONDecoder().decode(BackupEvaluationResponse.self, from: body).attemptsLeft
                    }
                }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            #expect(Set(left.compactMap { $0 }) == Set(95...99))
            #expect(try await Self.status(client, alice).failures == 5)
        }
    }

    @Test func theOPRFKeyDependsOnTheServerKeyAndTheAccount() throws {
        let key = BackupOPRFKey(serverKey: [UInt8](repeating: 1, count: 32))
        let evaluated = try #require(key.evaluate(Self.generator, accountId: "account-1"))
        #expect(key.evaluate(Self.generator, accountId: "account-1") == evaluated)
        #expect(key.evaluate(Self.generator, accountId: "account-2") != evaluated)
        #expect(BackupOPRFKey(serverKey: [UInt8](repeating: 2, count: 32)).evaluate(Self.generator, accountId: "account-1") != evaluated)
        #expect(key.evaluate(evaluated, accountId: "account-1") != nil, "the answer is itself a valid element")
        #expect(key.evaluate([UInt8](repeating: 0, count: 32), accountId: "account-1") == nil)
        #expect(key.evaluate(Array(Self.generator.prefix(31)), accountId: "account-1") == nil)
    }

    @Test func aDeviceResetChangesTheRegistrationIdAndDropsItsPrekeys() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            let bob = try await client.register("bob")
            try await client.uploadKeys(for: alice, count: 3)
            let old = try MessageTests.registrationId(of: alice)
            let new: UInt32 = old == 16380 ? 1 : old + 1
            let password = Data(repeating: 7, count: 24).base64EncodedString()
            #expect(
                try await client.call(
                    .put, APIRoutes.deviceRegistration, headers: alice.headers,
                    json: DeviceRegistrationRequest(registrationId: new, password: password)
                ).0 == .noContent)
            // The old installation's credential no longer signs in; the new one does.
            #expect(try await client.call(.get, APIRoutes.devices, headers: alice.headers).0 == .unauthorized)
            let renewed = Member(accountId: alice.accountId, deviceId: 1, password: password, store: alice.store)
            let (_, devices) = try await client.call(.get, APIRoutes.devices, headers: renewed.headers)
            #expect(try JSONDecoder().decode(DeviceListResponse.self, from: devices).devices.first?.registrationId == new)
            // The old installation's keys are gone: nobody builds a session the new one cannot answer.
            #expect(
                try await client.call(.get, APIRoutes.bundle(accountId: alice.accountId, deviceId: "1"), headers: bob.headers).0
                    == .notFound)
            let (_, counts) = try await client.call(.get, APIRoutes.keyCount, headers: renewed.headers)
            #expect(try JSONDecoder().decode(PreKeyCountResponse.self, from: counts) == PreKeyCountResponse(count: 0, kemCount: 0))
            // A sender still addressing the old installation is told to rebuild.
            let send = SendMessagesRequest(messages: [MessageTests.message(1, registrationId: old)], timestamp: 1)
            let (status, stale) = try await client.call(.put, APIRoutes.messages(to: alice.accountId), headers: bob.headers, json: send)
            #expect(status == .gone)
            #expect(try JSONDecoder().decode(StaleDevicesResponse.self, from: stale).staleDevices == [1])

            for bad: UInt32 in [0, 16381] {
                #expect(
                    try await client.call(
                        .put, APIRoutes.deviceRegistration, headers: renewed.headers,
                        json: DeviceRegistrationRequest(registrationId: bad, password: password)
                    ).0 == .badRequest)
            }
            #expect(
                try await client.call(
                    .put, APIRoutes.deviceRegistration, headers: renewed.headers,
                    json: DeviceRegistrationRequest(registrationId: 5, password: "short")
                ).0 == .badRequest)
            #expect(
                try await client.call(
                    .put, APIRoutes.deviceRegistration,
                    json: DeviceRegistrationRequest(registrationId: 5, password: password)
                ).0 == .unauthorized)
        }
    }
}
