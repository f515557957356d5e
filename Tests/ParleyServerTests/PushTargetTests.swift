import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import ParleyAPI
import Testing

@testable import ParleyServer

@Suite struct PushTargetTests {
    static func bytes(_ base64url: String) -> [UInt8] { Base64URL.decode(base64url, maximumLength: 400)! }

    /// A subscription's keys as a browser (or a UnifiedPush distributor) makes them.
    static func subscription(endpoint: String = "https://push.example/up/abc") -> PushTarget {
        let key = P256.KeyAgreement.PrivateKey()
        return .webPush(
            endpoint: endpoint, p256dh: Base64URL.encode(key.publicKey.x963Representation),
            auth: Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255) }))
    }

    /// RFC 8291 Appendix A: the application server's ephemeral key and salt fixed, the body is byte for byte the RFC's.
    @Test func webPushEncryptionMatchesRFC8291AppendixA() throws {
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        let body = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8),
            p256dh: Self.bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            auth: Self.bytes("BTBZMqHH6r4Tts7J_aSIgg"), ephemeralKey: ephemeral, salt: Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            Base64URL.encode(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
    }

    @Test func webPushEncryptionRefusesBadSubscriptions() throws {
        let auth = [UInt8](repeating: 1, count: 16)
        let key = Array(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        #expect(throws: WebPushEncryption.Failure.invalidSubscriptionKey) {
            try WebPushEncryption.encrypt([1], p256dh: [4] + [UInt8](repeating: 0, count: 64), auth: auth)
        }
        #expect(throws: WebPushEncryption.Failure.invalidAuthSecret) { try WebPushEncryption.encrypt([1], p256dh: key, auth: [1]) }
        #expect(throws: WebPushEncryption.Failure.payloadTooLarge(5000)) {
            try WebPushEncryption.encrypt([UInt8](repeating: 0, count: 5000), p256dh: key, auth: auth)
        }
    }

    /// The VAPID header's token is an ES256 JWT for the endpoint's origin that the `k` key verifies.
    @Test func vapidAuthorizationIsASignedTokenForTheOrigin() throws {
        let raw = Array(P256.Signing.PrivateKey().rawRepresentation)
        let signer = try VAPIDSigner(rawKey: raw, subject: "mailto:ops@example.org")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try signer.authorization(for: URL(string: "https://push.example:8443/up/abc?x=1")!, now: now)
        let parts = header.split(separator: " ")
        #expect(parts.count == 3 && parts[0] == "vapid")
        let token = String(parts[1].dropFirst(2).dropLast())
        let key = String(parts[2].dropFirst(2))
        #expect(key == signer.publicKey)
        let segments = token.split(separator: ".").map(String.init)
        let publicKey = try P256.Signing.PublicKey(x963Representation: Self.bytes(key))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.bytes(segments[2]))
        #expect(publicKey.isValidSignature(signature, for: Data((segments[0] + "." + segments[1]).utf8)))
        let claims = try JSONSerialization.jsonObject(with: Data(Self.bytes(segments[1]))) as? [String: Any]
        #expect(claims?["aud"] as? String == "https://push.example:8443")
        #expect(try VAPIDSigner.origin(of: URL(string: "https://Push.Example:443/x")!) == "https://push.example")
        #expect(try VAPIDSigner.origin(of: URL(string: "https://[2001:db8::1]:8443/x")!) == "https://[2001:db8::1]:8443")
        #expect(claims?["sub"] as? String == "mailto:ops@example.org")
        #expect(claims?["exp"] as? Int == 1_800_000_000 + 12 * 3600)
        #expect(throws: PushConfigurationError.invalidVAPIDSubject("ops@example.org")) {
            try VAPIDSigner(rawKey: raw, subject: "ops@example.org")
        }
    }

    @Test func retryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(PushHTTPResponse.retryAfter("7", now: now) == .seconds(7))
        #expect(PushHTTPResponse.retryAfter("Tue, 14 Nov 2023 22:13:40 GMT", now: now) == .seconds(20))
        #expect(PushHTTPResponse.retryAfter("999999", now: now) == PushHTTPResponse.maximumRetryAfter)
        #expect(PushHTTPResponse.retryAfter("soon", now: now) == nil)
        #expect(PushHTTPResponse.retryAfter(nil, now: now) == nil)
    }

    @Test func aDeviceRegistersReadsAndRemovesItsTarget() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let alice = try await client.register("alice")
            let target = Self.subscription()
            #expect(try await client.call(.put, APIRoutes.pushTarget, headers: alice.headers, json: target).0 == .noContent)
            var (status, body) = try await client.call(.get, APIRoutes.pushTarget, headers: alice.headers)
            #expect(status == .ok)
            #expect(
                try JSONDecoder().decode(PushTargetStatus.self, from: body)
                    == PushTargetStatus(target: target, keysRegistered: false, providers: ["webpush"]))
            try await client.uploadKeys(for: alice, count: 1)
            (_, body) = try await client.call(.get, APIRoutes.pushTarget, headers: alice.headers)
            #expect(try JSONDecoder().decode(PushTargetStatus.self, from: body).keysRegistered)

            #expect(try await client.call(.delete, APIRoutes.pushTarget, headers: alice.headers).0 == .noContent)
            #expect(try await client.call(.delete, APIRoutes.pushTarget, headers: alice.headers).0 == .notFound)
            (_, body) = try await client.call(.get, APIRoutes.pushTarget, headers: alice.headers)
            #expect(try JSONDecoder().decode(PushTargetStatus.self, from: body).target == nil)
            #expect(try await client.call(.get, APIRoutes.pushTarget).0 == .unauthorized)

            (status, body) = try await client.call(.get, APIRoutes.vapidKey)
            #expect(status == .ok)
            #expect(
                try JSONDecoder().decode(VAPIDKeyResponse.self, from: body).publicKey == harness.dependencies.push.settings.vapid.publicKey)
        }
    }

    @Test func malformedTargetsAreRefusedWithTheirReason() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            guard case .webPush(_, let p256dh, let auth) = Self.subscription() else { return }
            let refused: [(String, String)] = [
                (#"{"webPush":{"endpoint":"http://push.example/x","p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#, "endpoint"),
                (#"{"webPush":{"endpoint":"https://push.example/x","p256dh":"BAAA","auth":"\#(auth)"}}"#, "p256dh"),
                (#"{"webPush":{"endpoint":"https://push.example/x","p256dh":"\#(p256dh)","auth":"AAAA"}}"#, "auth"),
                (#"{"apns":{"token":"a/b","topic":"org.example.app"}}"#, "apns.token"),
                (#"{"apns":{"token":"abcdef","topic":"org.example.app"}}"#, "no apns credentials"),
                (#"{"fcm":{"token":"has space"}}"#, "fcm.token"),
                (#"{"webPush":{"endpoint":"https://127.0.0.1:8443/x","p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#, "private address"),
                (#"{"webPush":{"endpoint":"https://[::1]/x","p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#, "private address"),
                (#"{"fcm":{"token":"t"},"apns":{"token":"a","topic":"b"}}"#, "exactly one"),
                (#"{}"#, "exactly one"),
                (#"{"webPush":"#, "JSON"),
            ]
            for (json, reason) in refused {
                let (status, body) = try await client.call(.put, APIRoutes.pushTarget, headers: alice.headers, raw: json)
                #expect(status == .badRequest, "\(json)")
                let error = try? JSONDecoder().decode(APIErrorBody.self, from: body)
                #expect(
                    error?.message.lowercased().contains(reason.lowercased()) == true || reason == "JSON",
                    "\(json): \(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    /// The claim is seed 004's join (a target and a signed prekey), presence on any process, and the coalescing window.
    @Test func claimsOnlyOfflineDevicesWithKeysOncePerWindow() async throws {
        let harness = try ServerHarness()
        let store = harness.store
        try await harness.run { client in
            let alice = try await client.register("alice")
            let target = Self.subscription()
            try await store.setPushTarget(target, accountId: alice.accountId, deviceId: 1, now: 1000)
            func claim(at now: UInt64, window: UInt64 = 30_000) async throws -> PushClaim {
                try await store.claimPush(
                    accountId: alice.accountId, deviceId: 1, instanceId: "process-here", now: now,
                    pushedBefore: now - window, liveAfter: now - 90_000)
            }
            #expect(try await claim(at: 100_000) == .notPushable, "no signed prekey: the device could not decrypt")
            try await client.uploadKeys(for: alice, count: 1)
            #expect(try await claim(at: 100_000) == .claimed(target))
            #expect(try await claim(at: 110_000) == .recentlyPushed(pushedAt: 100_000), "pushed within the window")
            #expect(try await claim(at: 131_000) == .claimed(target), "the window passed")

            try await store.recordSocketOpened(accountId: alice.accountId, deviceId: 1, instanceId: "process-a", now: 140_000)
            #expect(try await claim(at: 150_000) == .online, "connected on another process")
            try await store.recordSocketClosed(accountId: alice.accountId, deviceId: 1, instanceId: "process-a")
            #expect(try await claim(at: 150_000) == .claimed(target), "a connection starts a new window")

            try await store.recordSocketOpened(accountId: alice.accountId, deviceId: 1, instanceId: "process-here", now: 160_000)
            #expect(try await claim(at: 170_000, window: 1) == .claimed(target), "this process's own sockets are its hub's business")
            try await store.recordSocketOpened(accountId: alice.accountId, deviceId: 1, instanceId: "process-b", now: 180_000)
            #expect(try await claim(at: 500_000, window: 1) == .claimed(target), "a socket no heartbeat refreshed is a dead process's")
            try await store.refreshSockets(instanceId: "process-c", now: 500_000, staleBefore: 410_000)

            try await store.setPushTarget(
                Self.subscription(endpoint: "https://push.example/up/new"), accountId: alice.accountId, deviceId: 1, now: 1)
            try await store.setPushTarget(target, accountId: alice.accountId, deviceId: 1, now: 1)
            #expect(
                try await store.removePushTarget(
                    accountId: alice.accountId, deviceId: 1, matching: Self.subscription(endpoint: "https://push.example/up/old")) == false,
                "a provider's answer about an older target leaves the new one")
            #expect(try await store.removePushTarget(accountId: alice.accountId, deviceId: 1, matching: target))
            #expect(try await store.pushTarget(accountId: alice.accountId, deviceId: 1) == nil)
        }
    }

    /// APNs provider tokens: ES256 with the key id and team, reused for 50 minutes, renewed after or on request.
    @Test func apnsProviderTokensAreReusedWithinTheHour() throws {
        let key = P256.Signing.PrivateKey()
        let configuration = try APNsConfiguration(
            keyPEM: key.pemRepresentation, keyPath: "AuthKey.p8", keyId: "ABC123DEFG", teamId: "DEF123GHIJ")
        let sender = APNsSender(configuration: configuration, timeToLiveSeconds: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try sender.providerToken(now: start)
        #expect(try sender.providerToken(now: start.addingTimeInterval(49 * 60)) == first)
        let renewed = try sender.providerToken(now: start.addingTimeInterval(51 * 60))
        #expect(renewed != first)
        #expect(try sender.providerToken(now: start.addingTimeInterval(52 * 60), replacing: renewed) != renewed)
        #expect(
            try sender.providerToken(now: start.addingTimeInterval(52 * 60), replacing: first) != first,
            "a stale token already replaced is not renewed again")

        let segments = first.split(separator: ".").map(String.init)
        let header = try JSONSerialization.jsonObject(with: Data(Self.bytes(segments[0]))) as? [String: String]
        #expect(header == ["alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"])
        let claims = try JSONSerialization.jsonObject(with: Data(Self.bytes(segments[1]))) as? [String: Any]
        #expect(claims?["iss"] as? String == "DEF123GHIJ" && claims?["iat"] as? Int == 1_800_000_000)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.bytes(segments[2]))
        #expect(key.publicKey.isValidSignature(signature, for: Data((segments[0] + "." + segments[1]).utf8)))

        #expect(throws: PushConfigurationError.invalidAPNsIdentifier("abc")) {
            try APNsConfiguration(keyPEM: key.pemRepresentation, keyPath: "AuthKey.p8", keyId: "abc", teamId: "DEF123GHIJ")
        }
        #expect(throws: PushConfigurationError.invalidAPNsKey(path: "AuthKey.p8")) {
            try APNsConfiguration(keyPEM: "not a key", keyPath: "AuthKey.p8", keyId: "ABC123DEFG", teamId: "DEF123GHIJ")
        }
    }

    @Test func serviceAccountFilesAreCheckedAtStart() throws {
        #expect(throws: PushConfigurationError.invalidServiceAccount(path: "sa.json", reason: "not a JSON object")) {
            try FCMServiceAccount(contents: Data("[]".utf8), path: "sa.json")
        }
        #expect(throws: PushConfigurationError.invalidServiceAccount(path: "sa.json", reason: "token_uri is missing or not https")) {
            try FCMServiceAccount(
                contents: Data(#"{"project_id":"p","client_email":"a@b","token_uri":"http://x/token","private_key":"k"}"#.utf8),
                path: "sa.json")
        }
        #expect(
            throws: PushConfigurationError.invalidServiceAccount(
                path: "sa.json", reason: "private_key is not an RSA key of 2048 bits or more")
        ) {
            try FCMServiceAccount(
                contents: Data(#"{"project_id":"p","client_email":"a@b","token_uri":"https://x/token","private_key":"k"}"#.utf8),
                path: "sa.json")
        }
    }

    /// A device restored as a new installation must not wake the old one's app.
    @Test func aRegistrationResetRemovesTheTarget() async throws {
        try await ServerHarness().run { client in
            let alice = try await client.register("alice")
            #expect(try await client.call(.put, APIRoutes.pushTarget, headers: alice.headers, json: Self.subscription()).0 == .noContent)
            let password = Data((0..<20).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            let reset = DeviceRegistrationRequest(registrationId: 99, password: password)
            #expect(try await client.call(.put, APIRoutes.deviceRegistration, headers: alice.headers, json: reset).0 == .noContent)
            let restored = Member(accountId: alice.accountId, deviceId: 1, password: password, store: alice.store)
            let (_, body) = try await client.call(.get, APIRoutes.pushTarget, headers: restored.headers)
            #expect(try JSONDecoder().decode(PushTargetStatus.self, from: body).target == nil)
        }
    }

    @Test func privateAddressesAreRecognised() {
        for host in [
            "127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.1.1", "0.0.0.0", "100.64.0.1", "localhost",
            "::1", "[::1]", "fe80::1", "fd00::1", "::ffff:127.0.0.1",
        ] {
            #expect(EndpointHost.isPrivateAddress(host), "\(host)")
        }
        for host in ["8.8.8.8", "172.32.0.1", "ntfy.sh", "2001:db8::1", "push.example"] {
            #expect(!EndpointHost.isPrivateAddress(host), "\(host)")
        }
    }
}
