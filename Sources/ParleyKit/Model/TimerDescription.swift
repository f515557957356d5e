/// Disappearing-message timers in words.
public enum TimerDescription {
    /// `30s`, `5m`, `1h`, `1d`, `1w` — the largest unit that divides the timer; `off` for 0.
    public static func short(_ seconds: UInt32) -> String {
        guard seconds > 0 else { return "off" }
        for (unit, size) in [("w", UInt32(604_800)), ("d", 86_400), ("h", 3_600), ("m", 60)] where seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }

    /// The notice a timer change shows in a conversation.
    public static func notice(_ seconds: UInt32) -> String {
        seconds == 0 ? "disappearing messages turned off" : "disappearing messages set to \(short(seconds))"
    }

    /// Parses `30s`, `5m`, `1h`, `1d`, `1w`, a number of seconds, or `off`.
    public static func parse(_ text: String) -> UInt32? {
        if text == "off" || text == "0" { return 0 }
        let units: [Character: UInt32] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        if let last = text.last, let unit = units[last], let value = UInt32(text.dropLast()) {
            let (product, overflow) = value.multipliedReportingOverflow(by: unit)
            return overflow ? nil : product
        }
        return UInt32(text)
    }
}
