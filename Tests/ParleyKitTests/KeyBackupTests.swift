import Crypto
import Foundation
import GRDB
import ParleyAPI
import ParleyServer
import Testing

@_spi(Inspection) @testable import ParleyKit

/// PIN backups against a real in-process server: making one, restoring it on a fresh database, wrong PINs, the
/// guess window, the wipe, the PBKDF2 compatibility stretch, and what a copy of the server's database reveals.
@Suite struct KeyBackupTests {
    /// The OPRF key of these servers (the contents of `backup-oprf.key`).
    static let oprfKey = [UInt8](repeating: 0x42, count: 32)

    static func settings(maximumFailures: Int = 10, attemptsPerWindow: Int = 5, clock: TestClock? = nil) -> BackupSettings {
        var settings = BackupSettings(oprfKey: oprfKey)
        settings.maximumFailures = maximumFailures
        settings.attemptsPerWindow = attemptsPerWindow
        if let clock { settings.clock = clock.source }
        return settings
    }

    /// Backups of `client`, stretched with libsodium's minimum Argon2id limits so the tests stay fast.
    static func backup(_ client: ParleyClient) -> KeyBackup {
        KeyBackup(database: client.database, api: client.api, store: client.store, argon2: .minimum)
    }

    static func identity(_ client: ParleyClient) throws -> Data? {
        try client.database.read { db in try Data.fetchOne(db, sql: "SELECT identity_key_pair FROM local_account WHERE id = 1") }
    }

    @Test func aRestoredDeviceKeepsTheIdentityAndPeersRebuildTheirSessions() async throws {
        try await TestServer.run(backup: Self.settings()) { server in
            let phone = try server.client("phone")
            let peer = try server.client("peer")
            let credentials = try await phone.accounts.register(username: "dana")
            try await peer.accounts.register(username: "erin")
            // The peer has a session with the phone's installation.
            _ = try peer.sender.enqueue(body: "before", to: credentials.accountId)
            #expect(try await peer.runJobs().completed == 1)
            #expect(try await phone.receiveOnce().count == 1)
            let devicesBefore = try await phone.devices()
            let oldRegistration = try #require(devicesBefore.first { $0.deviceId == 1 }?.registrationId)

            try await Self.backup(phone).create(pin: "2468")
            let status = try await Self.backup(phone).status()
            #expect(status.exists && status.failures == 0 && status.kdf?.algorithm == .argon2id)

            // A new machine knows the username and the PIN, nothing else (the username in any case).
            let laptop = try server.client("laptop")
            let restored = try await Self.backup(laptop).restore(username: "DANA", pin: "2468")
            #expect(restored.accountId == credentials.accountId && restored.deviceId == 1)
            // The old installation is shut out: its credential was replaced.
            let shutOut = await #expect(throws: ParleyError.self) { _ = try await phone.devices() }
            #expect(shutOut?.server != nil)
            // The backup was made again with the new credential (the old one it held no longer works).
            #expect(try await Self.backup(laptop).status().exists)
            #expect(try Self.identity(laptop) == Self.identity(phone))
            #expect(try laptop.accounts.account()?.username == "dana")
            let devicesAfter = try await laptop.devices()
            let newRegistration = try #require(devicesAfter.first { $0.deviceId == 1 }?.registrationId)
            #expect(newRegistration != oldRegistration)
            #expect(try laptop.accounts.account()?.registrationId == newRegistration)

            // The peer still holds its session with the old installation: the server answers 410, the peer builds a
            // new one from the restored device's fresh prekeys, and the restored device reads the message.
            _ = try peer.sender.enqueue(body: "after the restore", to: credentials.accountId)
            #expect(try await peer.runJobs().completed == 1)
            #expect(try await laptop.receiveOnce().count == 1)
            #expect(try laptop.conversations().first?.lastMessagePreview == "after the restore")

            // A restore cut short after its guess (here: as if the process died before the server switched) resumes
            // when called again: no second guess, the old credential tried first, then the new one.
            try await laptop.database.awaitableWrite { db in
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('restore_pending', ?)", arguments: [credentials.password])
            }
            #expect(try await Self.backup(laptop).restore(username: "dana", pin: "2468").accountId == credentials.accountId)
            #expect(try await Self.backup(laptop).status().failures == 0)
            #expect(try await laptop.devices().count == 1)

            // A database that already has an account is not overwritten.
            await #expect(throws: ParleyError.backup(.alreadyRegistered)) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "2468")
            }
        }
    }

    /// A restored account opens sealed messages: the restore fetches the server's trust root (the backup holds none),
    /// and a device that lacks it — restored by an earlier version — fetches it before it receives anything. Before,
    /// every sealed message after a restore was undecryptable, acknowledged and gone.
    @Test func aRestoredAccountOpensSealedMessages() async throws {
        try await TestServer.run(backup: Self.settings()) { server in
            let phone = try server.client("phone")
            let erin = try server.client("erin")
            let dana = try await phone.register(username: "dana").accountId
            try await erin.register(username: "erin")
            try await Self.backup(phone).create(pin: "2468")
            let laptop = try server.client("laptop")
            try await Self.backup(laptop).restore(username: "dana", pin: "2468")
            #expect(try laptop.settings().sealedSenderTrustRoot != nil)
            // The restored device writes first (its profile key travels with it), so Erin's answers go sealed.
            try await laptop.maintainKeys()
            #expect(try await laptop.send(MessageDraft(body: "I am back"), to: .person("erin")).status == .sent)
            _ = try await erin.receive()
            #expect(try await erin.send(MessageDraft(body: "welcome back"), to: .person(dana)).status == .sent)
            let first = try await laptop.receive()
            let stored = try #require(first.outcomes.compactMap { if case .stored(let id) = $0 { id } else { nil } }.first)
            #expect(try laptop.message(id: stored)?.body == "welcome back")
            #expect(try laptop.message(id: stored)?.sealed == true)

            // As an earlier version left it: no trust root. Receiving fetches it first, and the sealed message opens.
            try await laptop.database.awaitableWrite { db in
                try db.execute(sql: "DELETE FROM settings WHERE key = 'sealed_sender_trust_root'")
            }
            #expect(try await erin.send(MessageDraft(body: "still sealed"), to: .person(dana)).status == .sent)
            let second = try await laptop.receive()
            let again = try #require(second.outcomes.compactMap { if case .stored(let id) = $0 { id } else { nil } }.first)
            #expect(try laptop.message(id: again)?.body == "still sealed" && laptop.message(id: again)?.sealed == true)
        }
    }

    @Test func wrongPINsCountDownAndTheRightOneResetsTheCount() async throws {
        try await TestServer.run(backup: Self.settings(maximumFailures: 4)) { server in
            let phone = try server.client("phone")
            try await phone.accounts.register(username: "dana")
            try await Self.backup(phone).create(pin: "correct horse")
            let laptop = try server.client("laptop")
            await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: 3))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "1111")
            }
            await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: 2))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "Correct horse")
            }
            #expect(try await Self.backup(phone).status().failures == 2)
            #expect(try laptop.accounts.account() == nil, "a wrong PIN leaves the database empty")

            try await Self.backup(laptop).restore(username: "dana", pin: "correct horse")
            #expect(try await Self.backup(laptop).status().failures == 0)

            let other = try server.client("other")
            await #expect(throws: ParleyError.backup(.pinTooShort)) {
                _ = try await Self.backup(other).restore(username: "dana", pin: "123")
            }
            await #expect(throws: ParleyError.backup(.pinTooShort)) { try await Self.backup(laptop).create(pin: "abc") }
            await #expect(throws: ParleyError.backup(.noBackup)) {
                _ = try await Self.backup(other).restore(username: "nobody", pin: "1234")
            }
        }
    }

    @Test func fiveGuessesPerFiveMinutesThenTheServerSaysWhenToRetry() async throws {
        let clock = TestClock()
        try await TestServer.run(backup: Self.settings(maximumFailures: 20, clock: clock)) { server in
            let phone = try server.client("phone")
            try await phone.accounts.register(username: "dana")
            try await Self.backup(phone).create(pin: "2468")
            let laptop = try server.client("laptop")
            for left in [19, 18, 17, 16, 15] {
                await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: left))) {
                    _ = try await Self.backup(laptop).restore(username: "dana", pin: "0000")
                }
            }
            // The window is exact: the sixth guess waits until the first is five minutes old, and is not counted.
            await #expect(throws: ParleyError.backup(.rateLimited(retryAfter: 300))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "2468")
            }
            clock.advance(by: 299_000)
            await #expect(throws: ParleyError.backup(.rateLimited(retryAfter: 1))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "2468")
            }
            clock.advance(by: 1_000)
            await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: 14))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "0000")
            }
            #expect(try await Self.backup(phone).status().failures == 6)
        }
    }

    @Test func theBackupIsWipedAfterTheMaximumNumberOfGuesses() async throws {
        try await TestServer.run(backup: Self.settings(maximumFailures: 3, attemptsPerWindow: 20)) { server in
            let phone = try server.client("phone")
            try await phone.accounts.register(username: "dana")
            try await Self.backup(phone).create(pin: "2468")
            let laptop = try server.client("laptop")
            await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: 2))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "1357")
            }
            await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: 1))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "9999")
            }
            // A guess that never comes back with a verifier still counts.
            let probe = try await laptop.api.evaluateBackupPIN(
                try BlindedPIN(pin: "0000", keyedBy: "dana").blindedElement, account: "dana")
            #expect(probe.attemptsLeft == 0)
            // Now even the right PIN finds nothing: the server deleted the backup instead of evaluating it.
            await #expect(throws: ParleyError.backup(.wiped)) { _ = try await Self.backup(laptop).restore(username: "dana", pin: "2468") }
            #expect(try await Self.backup(phone).status().exists == false)
            await #expect(throws: ParleyError.backup(.noBackup)) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "2468")
            }

            // The last wrong verifier wipes too, and says so.
            try await Self.backup(phone).create(pin: "2468")
            for left in [2, 1] {
                await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: left))) {
                    _ = try await Self.backup(laptop).restore(username: "dana", pin: "1111")
                }
            }
            await #expect(throws: ParleyError.backup(.wrongPIN(attemptsLeft: 0))) {
                _ = try await Self.backup(laptop).restore(username: "dana", pin: "1111")
            }
            #expect(try await Self.backup(phone).status().exists == false)
        }
    }

    @Test func aPBKDF2BackupRestores() async throws {
        try await TestServer.run(backup: Self.settings()) { server in
            let phone = try server.client("phone")
            let credentials = try await phone.accounts.register(username: "dana")
            try await Self.backup(phone).create(pin: "seed 004 pin", kdf: .pbkdf2SHA256)
            let kdf = try await Self.backup(phone).status().kdf
            #expect(kdf?.algorithm == .pbkdf2SHA256 && kdf?.iterations == 100_000 && kdf?.opsLimit == nil)
            let laptop = try server.client("laptop")
            #expect(try await Self.backup(laptop).restore(username: "dana", pin: "seed 004 pin").accountId == credentials.accountId)
            #expect(try Self.identity(laptop) == Self.identity(phone))
        }
    }

    @Test func aCopyOfTheServersDatabaseWithoutTheKeyFileCannotCheckAPINGuess() async throws {
        try await TestServer.run(backup: Self.settings()) { server in
            let phone = try server.client("phone")
            let accountId = try await phone.accounts.register(username: "dana").accountId
            let pin = "pin-8642-secret"
            try await Self.backup(phone).create(pin: pin)

            // The database as an attacker would copy it: the SQLite file and its write-ahead log, no key file.
            let copy = server.directory.appendingPathComponent("leaked")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            var leakedBytes = Data()
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: server.serverDatabasePath + suffix) {
                let destination = copy.appendingPathComponent("server.sqlite" + suffix)
                try FileManager.default.copyItem(atPath: server.serverDatabasePath + suffix, toPath: destination.path)
                leakedBytes += try Data(contentsOf: destination)
            }
            let leaked = try DatabaseQueue(path: copy.appendingPathComponent("server.sqlite").path)
            let row = try #require(
                try leaked.read { db in
                    try Row.fetchOne(db, sql: "SELECT account_id, kdf_parameters, verifier_hash FROM key_backups")
                })
            #expect(row["account_id"] as String == accountId)
            let verifierHash = [UInt8](row["verifier_hash"] as Data)
            let parameters = try JSONDecoder().decode(BackupKDFParameters.self, from: Data((row["kdf_parameters"] as String).utf8))

            /// What a guess gives when the OPRF is evaluated with `serverKey`: the hash the server compares with.
            func verifierHashOf(_ guess: String, serverKey: [UInt8]) throws -> [UInt8] {
                let blinded = try BlindedPIN(pin: guess, keyedBy: "dana")
                let evaluated = try #require(BackupOPRFKey(serverKey: serverKey).evaluate(blinded.blindedElement, accountId: accountId))
                let keys = try BackupKDF.deriveKeys(from: try blinded.finalize(evaluatedElement: evaluated), parameters: parameters)
                return Array(SHA256.hash(data: keys.verifier))
            }
            // With the key file, the right PIN is recognised: what the live server does, once per counted guess.
            #expect(try verifierHashOf(pin, serverKey: Self.oprfKey) == verifierHash)
            #expect(try verifierHashOf("0000", serverKey: Self.oprfKey) != verifierHash)
            // Without it, the right PIN looks like every wrong one: an offline search has nothing to stop at.
            for otherKey in [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0x43, count: 32)] {
                #expect(try verifierHashOf(pin, serverKey: otherKey) != verifierHash)
            }
            // Neither the key, the PIN nor the verifier is anywhere in the copy.
            #expect(!leakedBytes.isEmpty)
            #expect(leakedBytes.range(of: Data(Self.oprfKey)) == nil)
            #expect(leakedBytes.range(of: Data(pin.utf8)) == nil)
            let blinded = try BlindedPIN(pin: pin, keyedBy: "dana")
            let evaluated = try #require(BackupOPRFKey(serverKey: Self.oprfKey).evaluate(blinded.blindedElement, accountId: accountId))
            let verifier = try BackupKDF.deriveKeys(from: try blinded.finalize(evaluatedElement: evaluated), parameters: parameters)
                .verifier
            #expect(leakedBytes.range(of: Data(verifier)) == nil)
        }
    }
}
