import Foundation

/// A zkcredential public key (legacy mode): C_W, and I for credentials of two to seven attribute points. What a client
/// verifies an issuance against and builds a presentation with. 224 bytes serialized: C_W, then the six I.
struct ZKCredentialPublicKey: Sendable {
    let cW: RistrettoPoint
    /// I for 2…7 attribute points (index 0: two).
    let i: [RistrettoPoint]

    /// I for a credential of `attributeCount` points (the public-attribute slot included).
    func i(attributeCount: Int) -> RistrettoPoint {
        precondition((2...7).contains(attributeCount), "zkcredential holds 2 to 7 attribute points")
        return i[attributeCount - 2]
    }

    var serialized: [UInt8] { cW.bytes + i.flatMap(\.bytes) }
}
