/// The Lagrange basis of SPQR's erasure code for a fixed set of distinct points in GF(2¹⁶), in barycentric form:
/// the denominators Π_{j≠i} (x_i − x_j) depend only on the points, so they are computed once (n² products) and every
/// evaluation point then costs n products. Rebuilding m missing chunks of an n-chunk message costs n² + m·n products
/// instead of m·n².
struct LagrangeBasis {
    /// The points, distinct.
    let xs: [UInt16]
    /// 1 / Π_{j≠i} (x_i − x_j) for each point i.
    private let inverseDenominators: [UInt16]

    /// The basis through `xs`, which must be distinct.
    init(xs: [UInt16]) {
        self.xs = xs
        inverseDenominators = xs.enumerated().map { i, xi in
            var denominator: UInt16 = 1
            for (j, xj) in xs.enumerated() where j != i { denominator = GF16.multiply(denominator, xi ^ xj) }
            return GF16.inverse(denominator)
        }
    }

    /// The weights at `x`, which must not be one of the points: weight i = Π_j (x − x_j) / (x − x_i) / Π_{j≠i} (x_i − x_j),
    /// so that the polynomial's value at `x` is Σ weight_i · y_i.
    func weights(at x: UInt16) -> [UInt16] {
        let product = xs.reduce(UInt16(1)) { GF16.multiply($0, x ^ $1) }
        precondition(product != 0, "the evaluation point is one of the basis points")
        return zip(xs, inverseDenominators).map { xi, inverseDenominator in
            GF16.multiply(GF16.multiply(product, GF16.inverse(x ^ xi)), inverseDenominator)
        }
    }
}
