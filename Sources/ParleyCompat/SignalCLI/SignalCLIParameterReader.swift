/// Parameters read as signal-cli reads them. A parameter given with the wrong type is invalid (-32602), not absent:
/// an edit's timestamp written as `"1.7e12"` must not send a new message instead.
struct SignalCLIParameterReader {
    let values: [String: JSONValue]

    /// The parameter `key`, unless it is absent or `null`.
    private func given(_ key: String) -> JSONValue? {
        guard let value = values[key], value != .null else { return nil }
        return value
    }

    /// Whether parameter `key` is given (present and not `null`).
    func has(_ key: String) -> Bool { given(key) != nil }

    private static func wrongType(_ key: String, _ type: String) -> JSONRPCError {
        JSONRPCError.invalidParams("\(key) must be \(type)")
    }

    func string(_ key: String) throws -> String? {
        try given(key).map { value in
            guard let text = value.string else { throw Self.wrongType(key, "a string") }
            return text
        }
    }

    /// An integer, or a string of one (signal-cli reads numeric options from strings too).
    func integer(_ key: String) throws -> Int64? {
        try given(key).map { value in
            guard let number = value.integer else { throw Self.wrongType(key, "an integer") }
            return number
        }
    }

    func bool(_ key: String) throws -> Bool? {
        try given(key).map { value in
            guard let flag = value.bool else { throw Self.wrongType(key, "true or false") }
            return flag
        }
    }

    /// A list option: the singular key when it is set (a string or an array of strings), else the plural one.
    func list(_ singular: String, _ plural: String) throws -> [String] {
        try list(given(singular) == nil ? plural : singular)
    }

    /// A list option under one key: a string or an array of strings (`[]` when absent).
    func list(_ key: String) throws -> [String] {
        guard let value = given(key) else { return [] }
        switch value {
        case .string(let text): return [text]
        case .array(let items):
            return try items.map { item in
                guard let text = item.string else { throw Self.wrongType(key, "a string or a list of strings") }
                return text
            }
        default: throw Self.wrongType(key, "a string or a list of strings")
        }
    }

    /// A list of integers under the singular or plural key (one integer, or an array of them).
    func integerList(_ singular: String, _ plural: String) throws -> [Int64] {
        let key = given(singular) == nil ? plural : singular
        guard let value = given(key) else { return [] }
        let items: [JSONValue] = if case .array(let items) = value { items } else { [value] }
        return try items.map { item in
            guard let number = item.integer else { throw Self.wrongType(key, "an integer or a list of integers") }
            return number
        }
    }
}
