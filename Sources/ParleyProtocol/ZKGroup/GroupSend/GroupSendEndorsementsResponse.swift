import Foundation

/// A server's endorsements of every member of a group for one expiration day (sent with the group state): R_i = sk′·E_i
/// for each member's ciphertext point E_i, in an order that reveals nothing of the request's (sorted by the encoding
/// of 2·E_i), and one proof that every R_i used the same key: with weights w_i hashed from the key and all points,
/// Σ w_i·R_i = sk′·Σ w_i·E_i and G = sk′·PK′. Serialized: `0x00`, the R_i with their u64 count, the 64-byte proof with
/// its u64 length, the expiration (u64, seconds).
public final class GroupSendEndorsementsResponse: ByteArray, @unchecked Sendable {
    /// The most members a response endorses (what a reader accepts; Signal's groups hold at most 1,001).
    static let maximumMembers = 10_000

    let endorsements: [RistrettoPoint]
    let proof: [UInt8]
    let expirationSeconds: UInt64

    /// The response `contents` holds.
    /// - Throws: ``SignalError/invalidType(_:)`` for a reserved byte other than 0, more than 10,000 endorsements, an
    ///   invalid point, a proof of another length or trailing bytes.
    public required init(contents: Data) throws {
        var reader = ZKGroupReader([UInt8](contents), reading: "GroupSendEndorsementsResponse")
        try reader.expectByte(0)
        endorsements = try (0..<reader.count(atMost: Self.maximumMembers)).map { _ in try reader.point() }
        proof = try reader.bytes(reader.count(atMost: 64))
        expirationSeconds = try reader.u64()
        try reader.finish()
        super.init(checked: [UInt8](contents))
    }

    private init(endorsements: [RistrettoPoint], proof: [UInt8], expiration: UInt64) {
        self.endorsements = endorsements
        self.proof = proof
        expirationSeconds = expiration
        var bytes: [UInt8] = [0] + ZKGroupReader.littleEndian(UInt64(endorsements.count)) + endorsements.flatMap(\.bytes)
        bytes += ZKGroupReader.littleEndian(UInt64(proof.count)) + proof + ZKGroupReader.littleEndian(expiration)
        super.init(checked: bytes)
    }

    /// Endorsements of `groupMembers` under `keyPair`, with fresh randomness.
    public static func issue(groupMembers: [UuidCiphertext], keyPair: GroupSendDerivedKeyPair) -> GroupSendEndorsementsResponse {
        issue(groupMembers: groupMembers, keyPair: keyPair, randomness: Randomness.generate())
    }

    /// Endorsements of `groupMembers` under `keyPair`, the proof's nonce from `randomness`.
    public static func issue(
        groupMembers: [UuidCiphertext], keyPair: GroupSendDerivedKeyPair, randomness: Randomness
    ) -> GroupSendEndorsementsResponse {
        let points = sorted(groupMembers.map(\.e1)).map(\.point)
        let endorsements = points.map { keyPair.secret * $0 }
        let weights = proofWeights(publicKey: keyPair.publicKey, points: points, endorsements: endorsements)
        let sumE = weightedSum(points, weights)
        let statementPoints: [String: RistrettoPoint] = [
            "weighted_sum(E)": sumE, "weighted_sum(R)": keyPair.secret * sumE, "PK_prime": keyPair.publicKey,
        ]
        // The statement holds by construction (sk′·PK′ = G), so proving cannot fail.
        guard
            let proof = try? proofStatement.prove(
                scalars: ["sk_prime": keyPair.secret], points: statementPoints, message: [], randomness: randomness.array)
        else { preconditionFailure("an endorsement proof failed for a consistent key") }
        return GroupSendEndorsementsResponse(endorsements: endorsements, proof: proof, expiration: keyPair.expiration)
    }

    /// When the endorsements stop being accepted.
    public var expiration: Date { Date(timeIntervalSince1970: TimeInterval(expirationSeconds)) }

    /// The endorsements checked and put back in the members' order: one per member, and the combination of all but the
    /// local user's (for a message to everyone else).
    public struct ReceivedEndorsements: Sendable {
        /// One per member, in the order given.
        public var endorsements: [GroupSendEndorsement]
        /// All but the local user's, combined.
        public var combinedEndorsement: GroupSendEndorsement
    }

    /// The endorsements, checked against the members' service ids (computed in the group whose secrets are
    /// `groupParams`).
    /// - Throws: ``SignalError/verificationFailed(_:)`` when `localUser` is not among `groupMembers`, the expiration is
    ///   not a whole day between two hours and seven days after `now`, or the endorsements are not for exactly these
    ///   members under the server's key.
    public func receive(
        groupMembers: some Collection<ServiceId>, localUser: Aci, now: Date = Date(), groupParams: GroupSecretParams,
        serverParams: ServerPublicParams
    ) throws -> ReceivedEndorsements {
        let a1 = groupParams.serviceIdKeys.a1
        guard let local = groupMembers.firstIndex(where: { $0 == localUser }) else {
            throw SignalError.verificationFailed("the local user is not among the group's members")
        }
        return try receive(
            points: groupMembers.map { a1 * ServiceIdPoints.m1($0) },
            localIndex: groupMembers.distance(from: groupMembers.startIndex, to: local),
            now: now, serverParams: serverParams)
    }

    /// The endorsements, checked against the members' ciphertexts.
    /// - Throws: ``SignalError/verificationFailed(_:)`` as ``receive(groupMembers:localUser:now:groupParams:serverParams:)``.
    public func receive(
        groupMembers: some Sequence<UuidCiphertext>, localUser: UuidCiphertext, now: Date = Date(), serverParams: ServerPublicParams
    ) throws -> ReceivedEndorsements {
        let points = groupMembers.map(\.e1)
        guard let local = points.firstIndex(of: localUser.e1) else {
            throw SignalError.verificationFailed("the local user is not among the group's members")
        }
        return try receive(points: points, localIndex: local, now: now, serverParams: serverParams)
    }

    private func receive(points: [RistrettoPoint], localIndex: Int, now: Date, serverParams: ServerPublicParams) throws
        -> ReceivedEndorsements
    {
        let day = ZKGroupTime.secondsPerDay
        let seconds = ZKGroupTime.seconds(now)
        let remaining = expirationSeconds > seconds ? expirationSeconds - seconds : 0
        guard expirationSeconds % day == 0, remaining >= 2 * 3_600, remaining <= 7 * day else {
            throw SignalError.verificationFailed("the endorsements' expiration is not a whole day two hours to seven days ahead")
        }
        guard points.count == endorsements.count else {
            throw SignalError.verificationFailed("the endorsements are for \(endorsements.count) members, not \(points.count)")
        }
        let publicKey =
            serverParams.endorsementKey + RistrettoPoint.base(times: GroupSendDerivedKeyPair.tagScalar(expiration: expirationSeconds))
        let order = Self.sorted(points)
        let sortedPoints = order.map(\.point)
        let weights = Self.proofWeights(publicKey: publicKey, points: sortedPoints, endorsements: endorsements)
        let statementPoints: [String: RistrettoPoint] = [
            "weighted_sum(E)": Self.weightedSum(sortedPoints, weights), "weighted_sum(R)": Self.weightedSum(endorsements, weights),
            "PK_prime": publicKey,
        ]
        guard Self.proofStatement.verify(proof: proof, points: statementPoints, message: []) else {
            throw SignalError.verificationFailed("the endorsements are not for these members under this server's key")
        }
        var inOrder = [RistrettoPoint](repeating: RistrettoPoint.identity, count: points.count)
        for (sortedIndex, entry) in order.enumerated() { inOrder[entry.index] = endorsements[sortedIndex] }
        let combined = inOrder.enumerated().reduce(RistrettoPoint.identity) { $1.offset == localIndex ? $0 : $0 + $1.element }
        return ReceivedEndorsements(
            endorsements: inOrder.map(GroupSendEndorsement.init(point:)), combinedEndorsement: GroupSendEndorsement(point: combined))
    }

    /// The points with their original indices, sorted by the encoding of twice each (libsignal's order).
    private static func sorted(_ points: [RistrettoPoint]) -> [(index: Int, point: RistrettoPoint)] {
        points.enumerated().map { (index: $0.offset, point: $0.element, key: ($0.element + $0.element).bytes) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { (index: $0.index, point: $0.point) }
    }

    /// The proof's statement: Σ w·R = sk′·Σ w·E, and G = sk′·PK′.
    private static var proofStatement: PokshoStatement {
        var statement = PokshoStatement()
        statement.add("weighted_sum(R)", [("sk_prime", "weighted_sum(E)")])
        statement.add("G", [("sk_prime", "PK_prime")])
        return statement
    }

    /// w_1 … w_{n−1} (w_0 is 1): 127-bit scalars squeezed from a SHO over PK′, the encodings of 2·E_i and the R_i.
    private static func proofWeights(publicKey: RistrettoPoint, points: [RistrettoPoint], endorsements: [RistrettoPoint])
        -> [RistrettoScalar]
    {
        guard points.count > 1 else { return [] }
        var sho = ShoHmacSha256(label: "Signal_ZKCredential_Endorsements_EndorsementResponse_ProofWeights_20240207")
        sho.absorb(publicKey.bytes)
        for point in points { sho.absorb((point + point).bytes) }
        for endorsement in endorsements { sho.absorb(endorsement.bytes) }
        sho.ratchet()
        let bytes = sho.squeezeAndRatchet((points.count - 1) * 16)
        return (0..<(points.count - 1)).map { chunk in
            var scalar = Array(bytes[(16 * chunk)..<(16 * chunk + 16)]) + [UInt8](repeating: 0, count: 16)
            scalar[15] &= 0x7f
            // Below 2^127, so canonical.
            return RistrettoScalar(canonical: scalar)!
        }
    }

    /// P_0 + Σ w_i·P_i (the identity for no points).
    private static func weightedSum(_ points: [RistrettoPoint], _ weights: [RistrettoScalar]) -> RistrettoPoint {
        guard let first = points.first else { return RistrettoPoint.identity }
        return zip(weights, points.dropFirst()).reduce(first) { $0 + $1.0 * $1.1 }
    }
}
