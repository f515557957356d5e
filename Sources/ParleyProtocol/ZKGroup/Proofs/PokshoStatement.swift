import Foundation

/// A poksho statement: linear relations over ristretto255, each `LHS = Σ scalar·point`, proved in zero knowledge
/// (a Schnorr-style sigma protocol made non-interactive with ``ShoHmacSha256``), byte for byte as libsignal's poksho.
///
/// Points and scalars are named; each gets an index at its first appearance (the left-hand side first, then each
/// term's scalar and point), and the point `G`, the generator, is index 0. Only the indices enter the transcript, as
/// the description `[equations] ++ per equation [lhs, terms] ++ per term [scalar, point]`.
struct PokshoStatement: Sendable {
    private struct Equation {
        let lhs: Int
        let terms: [(scalar: Int, point: Int)]
    }

    private var equations: [Equation] = []
    private(set) var pointNames: [String] = ["G"]
    private(set) var scalarNames: [String] = []

    /// The most equations, terms, points and scalars a statement holds (indices are bytes).
    static let limit = 255

    /// Adds `lhs = Σ scalar·point` over `terms` (scalar name, point name).
    mutating func add(_ lhs: String, _ terms: [(String, String)]) {
        let lhsIndex = Self.index(of: lhs, in: &pointNames)
        let indexed = terms.map { (Self.index(of: $0.0, in: &scalarNames), Self.index(of: $0.1, in: &pointNames)) }
        equations.append(Equation(lhs: lhsIndex, terms: indexed.map { (scalar: $0.0, point: $0.1) }))
    }

    private static func index(of name: String, in names: inout [String]) -> Int {
        if let index = names.firstIndex(of: name) { return index }
        names.append(name)
        return names.count - 1
    }

    /// The statement's description bytes.
    var description: [UInt8] {
        var bytes = [UInt8(equations.count)]
        for equation in equations {
            bytes += [UInt8(equation.lhs), UInt8(equation.terms.count)]
            for term in equation.terms { bytes += [UInt8(term.scalar), UInt8(term.point)] }
        }
        return bytes
    }

    /// The points in index order, `G` first, from `points` by name; `nil` when one is missing.
    private func orderedPoints(_ points: [String: RistrettoPoint]) -> [RistrettoPoint]? {
        var ordered = [RistrettoPoint.generator]
        for name in pointNames.dropFirst() {
            guard let point = points[name] else { return nil }
            ordered.append(point)
        }
        return ordered
    }

    /// The transcript after the description and the points.
    private func transcript(_ points: [RistrettoPoint]) -> ShoHmacSha256 {
        var sho = ShoHmacSha256(label: "POKSHO_Ristretto_SHOHMACSHA256")
        sho.absorb(description)
        for point in points { sho.absorb(point.bytes) }
        sho.ratchet()
        return sho
    }

    /// The challenge from the transcript, the commitments and the message.
    private static func challenge(_ transcript: ShoHmacSha256, commitments: [RistrettoPoint], message: [UInt8]) -> RistrettoScalar {
        var sho = transcript
        for commitment in commitments { sho.absorb(commitment.bytes) }
        sho.absorbAndRatchet(message)
        return sho.scalar()
    }

    /// A proof (challenge ‖ one response per scalar, 32 bytes each) that the named `scalars` satisfy the statement for
    /// the named `points`, bound to `message`, its nonces squeezed from `randomness` and the secrets; checked before it
    /// is returned.
    /// - Throws: ``SignalError/internalError(_:)`` when a scalar or point is missing, the statement is larger than
    ///   poksho allows, or the scalars do not satisfy it.
    func prove(
        scalars: [String: RistrettoScalar], points: [String: RistrettoPoint], message: [UInt8], randomness: [UInt8]
    ) throws -> [UInt8] {
        guard equations.count <= Self.limit, pointNames.count <= Self.limit, scalarNames.count <= Self.limit,
            equations.allSatisfy({ $0.terms.count <= Self.limit })
        else { throw SignalError.internalError("the poksho statement is too large") }
        guard let ordered = orderedPoints(points) else { throw SignalError.internalError("a poksho point is missing") }
        let secrets = try scalarNames.map { name in
            guard let scalar = scalars[name] else { throw SignalError.internalError("the poksho scalar \(name) is missing") }
            return scalar
        }
        let transcript = transcript(ordered)
        var nonceSho = transcript
        nonceSho.absorb(randomness)
        for secret in secrets { nonceSho.absorb(secret.bytes) }
        nonceSho.ratchet()
        nonceSho.absorbAndRatchet(message)
        let wide = nonceSho.squeezeAndRatchet(64 * secrets.count)
        let nonces = (0..<secrets.count).map { RistrettoScalar.reducing(Array(wide[(64 * $0)..<(64 * $0 + 64)])) }
        let commitments = equations.map { equation in
            equation.terms.map { nonces[$0.scalar] * ordered[$0.point] }.reduce(RistrettoPoint.identity, +)
        }
        let c = Self.challenge(transcript, commitments: commitments, message: message)
        let proof = zip(nonces, secrets).reduce(c.bytes) { $0 + ($1.0 + $1.1 * c).bytes }
        guard verify(proof: proof, points: points, message: message) else {
            throw SignalError.internalError("the poksho proof does not verify: the scalars do not satisfy the statement")
        }
        return proof
    }

    /// Whether `proof` proves the statement for the named `points`, bound to `message`. A proof that is not a challenge
    /// and exactly one canonical response per scalar, or a missing point, is false.
    func verify(proof: [UInt8], points: [String: RistrettoPoint], message: [UInt8]) -> Bool {
        guard proof.count == 32 * (1 + scalarNames.count), !scalarNames.isEmpty, let ordered = orderedPoints(points),
            let c = RistrettoScalar(canonical: proof[0..<32])
        else { return false }
        var responses: [RistrettoScalar] = []
        for index in 0..<scalarNames.count {
            guard let response = RistrettoScalar(canonical: proof[(32 + 32 * index)..<(64 + 32 * index)]) else { return false }
            responses.append(response)
        }
        let negated = -c
        let commitments = equations.map { equation in
            equation.terms.map { responses[$0.scalar] * ordered[$0.point] }.reduce(negated * ordered[equation.lhs], +)
        }
        return Self.challenge(transcript(ordered), commitments: commitments, message: message) == c
    }
}
