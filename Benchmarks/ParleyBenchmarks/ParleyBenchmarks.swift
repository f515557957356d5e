import Benchmark
import Foundation
import ParleyProtocol

/// The workloads of ../shared/interop/bench.c (names match its rows), measured with package-benchmark.
/// One iteration is one operation: a session setup, a message encrypted and decrypted, one fingerprint.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], maxDuration: .seconds(2), maxIterations: 1_000_000)

    // Setups: Bob's fresh prekeys are made before the clock starts; each timed operation is
    // process_bundle towards a new address, encrypt, and Bob decrypting the pre-key message.
    for (name, oneTime, kem) in [("setup", true, KEMKeyType?.none), ("setup_noopk", false, nil), ("setup_pqxdh", true, .kyber1024)] {
        Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark in
            let alice = ProtocolParty("alice")
            let bob = ProtocolParty("bob")
            let kyber = kem.map { KyberPreKeyRecord.generate(type: $0, id: 7, timestamp: 0, signedBy: bob.identity, spqr: false) }
            let bundles = benchmark.scaledIterations.map { bob.bundle(preKeyId: oneTime ? UInt32($0 + 1) : nil, kyber: kyber) }
            let peers = benchmark.scaledIterations.map { try! ProtocolAddress(name: "peer\($0)", deviceId: 1) }
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                alice.establishOnce(with: bob, as: peers[index], bundle: bundles[index])
            }
            benchmark.stopMeasurement()
        }
    }

    // Messages: 100 bytes encrypted and decrypted; "ratchet" alternates (a DH ratchet step each), "chain" does not.
    for (name, alternate) in [("ratchet", true), ("chain", false)] {
        Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark in
            let alice = ProtocolParty("alice")
            let bob = ProtocolParty("bob")
            alice.establish(with: bob)
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                if alternate && iteration % 2 == 1 {
                    bob.send(ProtocolParty.message, to: alice)
                } else {
                    alice.send(ProtocolParty.message, to: bob)
                }
            }
            benchmark.stopMeasurement()
        }
    }

    // The same two workloads on PQXDH sessions, without and with the SPQR (triple) ratchet: SPQR adds one chunk of
    // an ML-KEM-768 exchange per message and one KEM key generation, encapsulation and decapsulation per epoch.
    for (name, alternate, spqr) in [
        ("ratchet_pqxdh", true, false), ("chain_pqxdh", false, false),
        ("ratchet_spqr", true, true), ("chain_spqr", false, true),
    ] {
        Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark in
            let alice = ProtocolParty("alice")
            let bob = ProtocolParty("bob")
            let kyber = KyberPreKeyRecord.generate(type: .kyber1024, id: 7, timestamp: 0, signedBy: bob.identity, spqr: spqr)
            alice.establish(with: bob, kyber: kyber)
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                if alternate && iteration % 2 == 1 {
                    bob.send(ProtocolParty.message, to: alice)
                } else {
                    alice.send(ProtocolParty.message, to: bob)
                }
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("group", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let alice = ProtocolParty("alice")
        let bob = ProtocolParty("bob")
        let group = UUID()
        let skdm = try! SenderKeyDistributionMessage(from: alice.address, distributionId: group, store: alice.store, context: alice.context)
        try! processSenderKeyDistributionMessage(skdm, from: alice.address, distributionId: group, store: bob.store, context: bob.context)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let message = try! groupEncrypt(
                ProtocolParty.message, from: alice.address, distributionId: group, store: alice.store, context: alice.context)
            blackHole(
                try! groupDecrypt(message.serialize(), from: alice.address, distributionId: group, store: bob.store, context: bob.context))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("fingerprint") { benchmark in
        let local = PrivateKey.generate().publicKey
        let remote = PrivateKey.generate().publicKey
        let generator = NumericFingerprintGenerator(iterations: 5200)
        for _ in benchmark.scaledIterations {
            let fingerprint = try! generator.create(
                version: 1, localIdentifier: Array("+14155550101".utf8), localKey: local,
                remoteIdentifier: Array("+14155550202".utf8), remoteKey: remote)
            blackHole(fingerprint.displayable.formatted)
        }
    }

    Benchmark("x25519", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let ours = PrivateKey.generate()
        let theirs = PrivateKey.generate().publicKey
        for _ in benchmark.scaledIterations { blackHole(try! ours.keyAgreement(with: theirs)) }
    }

    Benchmark("sign", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let key = PrivateKey.generate()
        let message = key.publicKey.serialize()
        for _ in benchmark.scaledIterations { blackHole(key.generateSignature(message: message)) }
    }

    Benchmark("verify", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let key = PrivateKey.generate()
        let message = key.publicKey.serialize()
        let signature = key.generateSignature(message: message)
        for _ in benchmark.scaledIterations { blackHole(try! key.publicKey.verifySignature(message: message, signature: signature)) }
    }

    // zkgroup's auth credential (issue 44): what a group server does per request (verify) and per account per day
    // (issue), and what a client does per group operation (present). No C counterpart: libsignal-protocol-c has no zkgroup.
    let zkServer = try! ServerSecretParams.generate()
    let zkServerPublic = try! zkServer.getPublicParams()
    let zkGroup = try! GroupSecretParams.generate()
    let zkGroupPublic = try! zkGroup.getPublicParams()
    let zkAci = Aci(fromUUID: UUID())
    let zkPni = Pni(fromUUID: UUID())
    let zkDay = UInt64(Date().timeIntervalSince1970) / 86_400 * 86_400
    let zkServerAuth = ServerZkAuthOperations(serverSecretParams: zkServer)
    let zkClientAuth = ClientZkAuthOperations(serverPublicParams: zkServerPublic)
    let zkResponse = try! zkServerAuth.issueAuthCredentialWithPniZkc(aci: zkAci, pni: zkPni, redemptionTime: zkDay)
    let zkCredential = try! zkClientAuth.receiveAuthCredentialWithPniAsServiceId(
        aci: zkAci, pni: zkPni, redemptionTime: zkDay, authCredentialResponse: zkResponse)
    let zkPresentation = try! zkClientAuth.createAuthCredentialPresentation(groupSecretParams: zkGroup, authCredential: zkCredential)
    let zkNow = Date(timeIntervalSince1970: TimeInterval(zkDay))

    Benchmark("zkgroup_auth_issue") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! zkServerAuth.issueAuthCredentialWithPniZkc(aci: zkAci, pni: zkPni, redemptionTime: zkDay))
        }
    }

    Benchmark("zkgroup_auth_receive") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try! zkClientAuth.receiveAuthCredentialWithPniAsServiceId(
                    aci: zkAci, pni: zkPni, redemptionTime: zkDay, authCredentialResponse: zkResponse))
        }
    }

    Benchmark("zkgroup_auth_present") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! zkClientAuth.createAuthCredentialPresentation(groupSecretParams: zkGroup, authCredential: zkCredential))
        }
    }

    let zkServerProfile = ServerZkProfileOperations(serverSecretParams: zkServer)
    let zkClientProfile = ClientZkProfileOperations(serverPublicParams: zkServerPublic)
    let zkProfileKey = try! ProfileKey(contents: Data(repeating: 7, count: 32))
    let zkProfileContext = try! zkClientProfile.createProfileKeyCredentialRequestContext(userId: zkAci, profileKey: zkProfileKey)
    let zkProfileResponse = try! zkServerProfile.issueExpiringProfileKeyCredential(
        profileKeyCredentialRequest: try! zkProfileContext.getRequest(), userId: zkAci,
        profileKeyCommitment: try! zkProfileKey.getCommitment(userId: zkAci), expiration: zkDay + 3 * 86_400)
    let zkProfileCredential = try! zkClientProfile.receiveExpiringProfileKeyCredential(
        profileKeyCredentialRequestContext: zkProfileContext, profileKeyCredentialResponse: zkProfileResponse, now: zkNow)
    let zkProfilePresentation = try! zkClientProfile.createProfileKeyCredentialPresentation(
        groupSecretParams: zkGroup, profileKeyCredential: zkProfileCredential)

    Benchmark("zkgroup_profile_present") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try! zkClientProfile.createProfileKeyCredentialPresentation(
                    groupSecretParams: zkGroup, profileKeyCredential: zkProfileCredential))
        }
    }

    Benchmark("zkgroup_profile_verify") { benchmark in
        for _ in benchmark.scaledIterations {
            try! zkServerProfile.verifyProfileKeyCredentialPresentation(
                groupPublicParams: zkGroupPublic, profileKeyCredentialPresentation: zkProfilePresentation, now: zkNow)
        }
    }

    // Group send endorsements for a 1,000-member group: what the server does when it hands out the group state, and
    // what each member's client does to check them.
    let zkMembers = (0..<1_000).map { _ in Aci(fromUUID: UUID()) }
    let zkCipher = ClientZkGroupCipher(groupSecretParams: zkGroup)
    let zkMemberCiphertexts = zkMembers.map { try! zkCipher.encrypt($0) }
    let zkEndorsementKey = GroupSendDerivedKeyPair.forExpiration(
        Date(timeIntervalSince1970: TimeInterval(zkDay + 2 * 86_400)), params: zkServer)
    let zkEndorsements = GroupSendEndorsementsResponse.issue(groupMembers: zkMemberCiphertexts, keyPair: zkEndorsementKey)

    Benchmark("zkgroup_endorse_1000_issue", configuration: .init(maxDuration: .seconds(10), maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(GroupSendEndorsementsResponse.issue(groupMembers: zkMemberCiphertexts, keyPair: zkEndorsementKey))
        }
    }

    Benchmark("zkgroup_endorse_1000_receive", configuration: .init(maxDuration: .seconds(10), maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                try! zkEndorsements.receive(
                    groupMembers: zkMemberCiphertexts, localUser: zkMemberCiphertexts[0], now: zkNow, serverParams: zkServerPublic))
        }
    }

    Benchmark("zkgroup_auth_verify") { benchmark in
        for _ in benchmark.scaledIterations {
            try! zkServerAuth.verifyAuthCredentialPresentation(
                groupPublicParams: zkGroupPublic, authCredentialPresentation: zkPresentation, now: zkNow)
        }
    }

    // Usernames (issue 45): the hash and proof a client makes when it takes a username, the check the server makes on
    // every confirmation, and a link's decryption (what resolving a shared link costs a client).
    let username = try! Username("wanderer_in_the_hills.2718281828")
    let usernameProof = username.generateProof()
    let (linkEntropy, linkBytes) = try! username.createLink()
    Benchmark("username_hash") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! Username("wanderer_in_the_hills.2718281828").hash) }
    }
    Benchmark("username_proof") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(username.generateProof()) }
    }
    Benchmark("username_proof_verify") { benchmark in
        for _ in benchmark.scaledIterations { try! Username.verify(proof: usernameProof, forHash: username.hash) }
    }
    Benchmark("username_link_decrypt", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! Username(fromLink: linkBytes, withRandomness: linkEntropy)) }
    }

    groupChangeBenchmarks(
        server: zkServer, group: zkGroup, members: zkMembers, memberCiphertexts: zkMemberCiphertexts,
        newMember: zkProfilePresentation.serialize())
}

extension ProtocolParty {
    /// The C benchmark's setup: process_bundle towards `peer`, encrypt, and `other` decrypting the pre-key message.
    func establishOnce(with other: ProtocolParty, as peer: ProtocolAddress, bundle: PreKeyBundle) {
        try! processPreKeyBundle(bundle, for: peer, sessionStore: store, identityStore: store, context: context)
        let message = try! signalEncrypt(
            message: ProtocolParty.message, for: peer, sessionStore: store, identityStore: store, context: context)
        blackHole(
            try! signalDecryptPreKey(
                message: try! PreKeySignalMessage(bytes: message.serialize()), from: peer, sessionStore: other.store,
                identityStore: other.store, preKeyStore: other.store, signedPreKeyStore: other.store,
                kyberPreKeyStore: other.store, context: other.context))
    }
}
