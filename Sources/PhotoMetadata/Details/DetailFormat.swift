import JSON

/// How a photo's detail screen writes its numbers (pure functions, no locale: the app's English screen).
public enum DetailFormat {
    /// "ƒ/1.8", "ƒ/2", "ƒ/11": one decimal at most, a trailing ".0" dropped.
    public static func aperture(_ fNumber: Double) -> String {
        "ƒ/" + fixedNumber(fNumber, digits: 1, trimmingZeros: true)
    }

    /// Exposure time: "1/120 s" below 0.3 s (1/N with N the nearest whole number to 1/t, or the fraction as written
    /// when its numerator is 1), else seconds with one decimal at most: "0.3 s", "2.5 s", "30 s" — the way cameras
    /// show shutter speeds.
    public static func shutter(_ exposure: Rational) -> String? {
        guard let seconds = exposure.doubleValue, seconds > 0 else { return nil }
        if seconds >= 0.3 { return fixedNumber(seconds, digits: 1, trimmingZeros: true) + " s" }
        if exposure.numerator == 1 { return "1/\(exposure.denominator) s" }
        return "1/\(Int((1 / seconds).rounded())) s"
    }

    /// "4.2 mm", "26 mm".
    public static func focalLength(_ millimetres: Double) -> String {
        fixedNumber(millimetres, digits: 1, trimmingZeros: true) + " mm"
    }

    /// Decimal degrees with six decimals (about 0.1 m): "35.658581", "-0.127500".
    public static func coordinate(_ degrees: Double) -> String { fixedNumber(degrees, digits: 6) }

    /// "12.3 m", "-4 m".
    public static func altitude(_ metres: Double) -> String {
        fixedNumber(metres, digits: 1, trimmingZeros: true) + " m"
    }

    /// A file size for people, in decimal units as phones and file browsers show them (1 KB = 1,000 bytes):
    /// "0 bytes", "1 byte", "999 bytes"; from 1,000 bytes the largest unit whose value stays below 1,000 when
    /// rounded, with one decimal below 100 ("1.0 KB", "99.9 KB", "2.4 MB") and none from 100 ("100 KB",
    /// "999 KB"); halves round up.
    public static func fileSize(_ bytes: Int) -> String {
        guard bytes >= 1000 else { return bytes == 1 ? "1 byte" : "\(max(0, bytes)) bytes" }
        var divisor = 1000
        for unit in ["KB", "MB", "GB", "TB", "PB"] {
            let tenths = (bytes / divisor) * 10 + ((bytes % divisor) * 10 + divisor / 2) / divisor
            if tenths < 1000 { return "\(tenths / 10).\(tenths % 10) \(unit)" }
            let whole = bytes / divisor + ((bytes % divisor) * 2 >= divisor ? 1 : 0)
            if whole < 1000 { return "\(whole) \(unit)" }
            guard divisor <= Int.max / 1000 else { break }
            divisor *= 1000
        }
        return "\(bytes / divisor) EB"
    }

    /// The orientation as exiftool names it: 1 "Horizontal (normal)", 6 "Rotate 90 CW", …; nil outside 1–8.
    public static func orientation(_ value: UInt16) -> String? {
        switch value {
        case 1: "Horizontal (normal)"
        case 2: "Mirror horizontal"
        case 3: "Rotate 180"
        case 4: "Mirror vertical"
        case 5: "Mirror horizontal and rotate 270 CW"
        case 6: "Rotate 90 CW"
        case 7: "Mirror horizontal and rotate 90 CW"
        case 8: "Rotate 270 CW"
        default: nil
        }
    }
}
