/// Any JSON value, for JSON-RPC ids and parameters.
enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// `text` as a JSON string, or `null` when there is none.
    static func orNull(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .number(let value): value == value.rounded() ? Int64(exactly: value) : nil
        case .string(let text): Int64(text)  // signal-cli reads numeric options from strings too
        default: nil
        }
    }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
}
