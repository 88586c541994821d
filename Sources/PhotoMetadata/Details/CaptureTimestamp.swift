/// When a photo was taken, as its EXIF says: the local date and time (`DateTimeOriginal`, "YYYY:MM:DD HH:MM:SS"),
/// the fraction of a second (`SubSecTimeOriginal`) and the time zone offset (`OffsetTimeOriginal`, "±HH:MM";
/// EXIF 2.31). The time is not converted: it is the camera's local time, with the offset when the camera wrote one.
public struct CaptureTimestamp: Sendable, Hashable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// The sub-second digits as written ("120" is 0.120 s), or nil.
    public var fraction: String?
    /// "+09:00", "-05:30" or "Z"… as written when well-formed, else nil.
    public var offset: String?

    /// Parses the EXIF strings; nil when the date is malformed or unknown (EXIF writes unknown parts as spaces
    /// or zeros: "0000:00:00 00:00:00").
    public init?(dateTime: String, subSeconds: String? = nil, offset: String? = nil) {
        let bytes = Array(dateTime.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            let part = bytes[range]
            guard part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard bytes[4] == UInt8(ascii: ":"), bytes[7] == UInt8(ascii: ":"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            year > 0, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
            year, month, day, hour, minute, second
        )
        let digits = subSeconds.map { String($0.prefix { $0.isASCII && $0.isNumber }) }
        fraction = (digits?.isEmpty ?? true) ? nil : digits
        self.offset = offset.flatMap(Self.wellFormedOffset)
    }

    /// "+HH:MM" / "-HH:MM" with HH ≤ 14 and MM < 60, or nil.
    static func wellFormedOffset(_ text: String) -> String? {
        let b = Array(text.utf8)
        guard b.count == 6, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[3] == UInt8(ascii: ":"),
            [1, 2, 4, 5].allSatisfy({ b[$0] >= 0x30 && b[$0] <= 0x39 })
        else { return nil }
        let hours = Int(b[1] - 0x30) * 10 + Int(b[2] - 0x30), minutes = Int(b[4] - 0x30) * 10 + Int(b[5] - 0x30)
        return hours <= 14 && minutes < 60 ? text : nil
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    private var date: String {
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + Self.two(month) + "-" + Self.two(day)
    }

    private var time: String { Self.two(hour) + ":" + Self.two(minute) + ":" + Self.two(second) }

    /// ISO 8601: "2024-05-01T14:03:22.120+09:00" (no offset when the camera wrote none).
    public var iso8601: String { date + "T" + time + (fraction.map { "." + $0 } ?? "") + (offset ?? "") }

    /// For people: "2024-05-01 14:03:22 +09:00" (or "… (no time zone)").
    public var display: String { date + " " + time + " " + (offset ?? "(no time zone)") }
}
