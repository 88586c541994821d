import Notation

/// HTTP dates in the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7), as whole seconds
/// since the Unix epoch. Pure arithmetic (proleptic Gregorian calendar, UTC): no clock, no locale.
public enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The first and last seconds an IMF-fixdate can name from the epoch on (a four-digit year):
    /// 1970-01-01 00:00:00 and 9999-12-31 23:59:59, the range nginx clamps its dates to.
    public static let representable: ClosedRange<Int64> = 0...253_402_300_799

    /// `secondsSinceEpoch` moved into ``representable``: a file's modification time before 1970 or after 9999
    /// is sent, and compared with request dates, as the nearest date the format can name.
    public static func clamped(_ secondsSinceEpoch: Int64) -> Int64 {
        min(max(secondsSinceEpoch, representable.lowerBound), representable.upperBound)
    }

    /// Formats seconds since the epoch, ``clamped(_:)`` first: `HTTPDate.format(784111777)` is
    /// `"Sun, 06 Nov 1994 08:49:37 GMT"`.
    public static func format(_ secondsSinceEpoch: Int64) -> String {
        let (days, secondOfDay) = CivilDate.split(secondsSinceEpoch: Int(clamped(secondsSinceEpoch)))
        let (year, month, day) = CivilDate.date(days: days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(twoDigits(day)) \(months[month - 1]) \(year) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    /// Parses an IMF-fixdate; nil for anything else (obsolete formats included: the condition is then ignored).
    public static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), parts[1].count == 2, (1...31).contains(day),
            let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = CivilDate.days(year: year, month: monthIndex + 1, day: day)
        return Int64(days * 86_400 + hour * 3600 + minute * 60 + second)
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
