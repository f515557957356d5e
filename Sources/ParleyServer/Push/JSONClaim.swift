/// A JSON Web Token claim value: text or a whole number (times in seconds since 1970).
enum JSONClaim: Encodable, Sendable, Equatable {
    case string(String)
    case integer(Int64)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        }
    }
}
