/// One calendar month (UTC) of the mailbox, stored as its own partition `mailbox_yYYYYmMM` holding the envelopes
/// whose `server_timestamp` is in `lowerBound ..< upperBound` (milliseconds since 1970).
struct MailboxPartition: Sendable, Equatable {
    /// The Gregorian year.
    let year: Int
    /// The month, 1 ... 12.
    let month: Int

    private static let millisecondsPerDay: Int64 = 86_400_000
    private static let tablePrefix = "mailbox_y"

    /// The month `year`-`month`.
    init(year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    /// The month that holds `milliseconds` since 1970.
    init(containing milliseconds: Int64) {
        let civil = Self.civilDate(daysSince1970: milliseconds / Self.millisecondsPerDay)
        self.init(year: civil.year, month: civil.month)
    }

    /// The month a table name made by ``tableName`` stands for; `nil` for any other name.
    init?(tableName: String) {
        guard tableName.hasPrefix(Self.tablePrefix), tableName.count == Self.tablePrefix.count + 7,
            let year = Int(tableName.dropFirst(Self.tablePrefix.count).prefix(4)),
            let month = Int(tableName.suffix(2)), (1...12).contains(month)
        else { return nil }
        self.init(year: year, month: month)
        // Only names this type makes: rejects "mailbox_y+202m07" and the like.
        guard self.tableName == tableName else { return nil }
    }

    /// `mailbox_y2025m07` for July 2025 (four-digit years, which every timestamp the server makes has).
    var tableName: String {
        Self.tablePrefix + String(year) + "m" + (month < 10 ? "0" : "") + String(month)
    }

    /// The first millisecond of the month.
    var lowerBound: Int64 { Self.daysSince1970(year: year, month: month) * Self.millisecondsPerDay }

    /// The first millisecond of the next month.
    var upperBound: Int64 { next.lowerBound }

    /// The month after this one.
    var next: MailboxPartition {
        month == 12 ? MailboxPartition(year: year + 1, month: 1) : MailboxPartition(year: year, month: month + 1)
    }

    // Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian calendar, eras of 400 years).
    private static func daysSince1970(year: Int, month: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * Int64(month > 2 ? month - 3 : month + 9) + 2) / 5
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(daysSince1970 days: Int64) -> (year: Int, month: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month))
    }
}
