/// An ISO 8601 date and time as used by EXT-X-PROGRAM-DATE-TIME and EXT-X-DATERANGE, kept field by field so
/// it is written back exactly (fraction digits and zone offset preserved).
public struct DateTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    // Stored compactly (16 bytes): a media playlist holds one per segment.
    private var storedYear: Int32
    private var storedNanosecond: Int32
    private var storedOffset: Int16
    private var storedMonth: UInt8
    private var storedDay: UInt8
    private var storedHour: UInt8
    private var storedMinute: UInt8
    private var storedSecond: UInt8
    private var storedFractionDigits: UInt8

    public var year: Int {
        get { Int(storedYear) }
        set { storedYear = Int32(clamping: newValue) }
    }
    public var month: Int {
        get { Int(storedMonth) }
        set { storedMonth = UInt8(clamping: newValue) }
    }
    public var day: Int {
        get { Int(storedDay) }
        set { storedDay = UInt8(clamping: newValue) }
    }
    public var hour: Int {
        get { Int(storedHour) }
        set { storedHour = UInt8(clamping: newValue) }
    }
    public var minute: Int {
        get { Int(storedMinute) }
        set { storedMinute = UInt8(clamping: newValue) }
    }
    public var second: Int {
        get { Int(storedSecond) }
        set { storedSecond = UInt8(clamping: newValue) }
    }
    /// The fraction of a second, in nanoseconds (0...999_999_999).
    public var nanosecond: Int {
        get { Int(storedNanosecond) }
        set { storedNanosecond = Int32(clamping: newValue) }
    }
    /// How many fraction digits to write (0 = none); 3 gives milliseconds.
    public var fractionDigits: Int {
        get { Int(storedFractionDigits) }
        set { storedFractionDigits = UInt8(clamping: newValue) }
    }
    /// Minutes east of UTC; 0 is written `Z`.
    public var utcOffsetMinutes: Int {
        get { Int(storedOffset) }
        set { storedOffset = Int16(clamping: newValue) }
    }

    public init(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0,
        fractionDigits: Int = 3, utcOffsetMinutes: Int = 0
    ) {
        storedYear = Int32(clamping: year)
        storedMonth = UInt8(clamping: month)
        storedDay = UInt8(clamping: day)
        storedHour = UInt8(clamping: hour)
        storedMinute = UInt8(clamping: minute)
        storedSecond = UInt8(clamping: second)
        storedNanosecond = Int32(clamping: nanosecond)
        storedFractionDigits = UInt8(clamping: fractionDigits)
        storedOffset = Int16(clamping: utcOffsetMinutes)
    }

    /// The UTC date-time `secondsSince1970` seconds after 1970-01-01T00:00:00Z, written with milliseconds.
    /// Values beyond ±10^11 seconds (about ±3,000 years) and non-finite values are clamped to that range.
    public init(secondsSince1970: Double) {
        let seconds = secondsSince1970.isFinite ? min(max(secondsSince1970, -1e11), 1e11) : 0
        let totalNanoseconds = (seconds * 1_000_000_000).rounded()
        let secondsTotal = Int((totalNanoseconds / 1_000_000_000).rounded(.down))
        let nanos = Int(totalNanoseconds - Double(secondsTotal) * 1_000_000_000)
        var days = secondsTotal / 86_400
        var rest = secondsTotal % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (y, m, d) = CivilDate.date(days: days)
        self.init(
            year: y, month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60,
            nanosecond: min(max(nanos, 0), 999_999_999), fractionDigits: 3, utcOffsetMinutes: 0)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double {
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - utcOffsetMinutes * 60
        return Double(seconds) + Double(nanosecond) / 1_000_000_000
    }

    public static func < (lhs: DateTime, rhs: DateTime) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if fractionDigits > 0 {
            let nine = pad(nanosecond, 9)
            let digits = min(fractionDigits, 9)
            text += "." + nine.prefix(digits)
            if fractionDigits > 9 { text += String(repeating: "0", count: fractionDigits - 9) }
        }
        if utcOffsetMinutes == 0 {
            text += "Z"
        } else {
            let magnitude = abs(utcOffsetMinutes)
            text += (utcOffsetMinutes < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
        }
        return text
    }
}
