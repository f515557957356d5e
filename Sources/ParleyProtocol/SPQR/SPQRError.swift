/// Why an SPQR (post-quantum ratchet) input was refused. A refused input changes no state.
public enum SPQRError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `pq_ratchet` bytes are not an SPQR V1 message (truncated, a varint too long, a value out of range, an
    /// unknown message type).
    case malformedMessage(String)
    /// An erasure-coded message cannot be rebuilt from the chunks given (too few distinct chunks, wrong sizes).
    case undecodable(String)
    /// A key was asked for outside the chain's bounds: too far ahead (more than ``SPQRChain/maximumJump``), too
    /// far behind (more than ``SPQRChain/maximumKeptKeys`` kept), already used, or for an epoch no longer kept.
    case keyUnavailable(String)

    public var description: String {
        switch self {
        case .malformedMessage(let detail): return "malformed SPQR message: \(detail)"
        case .undecodable(let detail): return "SPQR chunks do not decode: \(detail)"
        case .keyUnavailable(let detail): return "SPQR key unavailable: \(detail)"
        }
    }
}
