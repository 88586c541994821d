import CLIKit
import JSON

/// Left-aligned text columns separated by two spaces, for the human-readable reports.
///
///     var table = TextTable(header: ["BANDWIDTH", "URI"])
///     table.append(["928 kb/s", "360p/index.m3u8"])
///     table.lines(indent: 2)   // ["  BANDWIDTH  URI", "  928 kb/s   360p/index.m3u8"]
///
/// Widths are terminal columns: Hangul, CJK and full-width characters take two. Trailing spaces are trimmed.
public struct TextTable {
    public var header: [String]?
    public var rows: [[String]] = []

    public init(header: [String]? = nil) {
        self.header = header
    }

    public mutating func append(_ row: [String]) { rows.append(row) }

    public func lines(indent: Int) -> [String] {
        let all = (header.map { [$0] } ?? []) + rows
        let columnCount = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columnCount)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], Self.displayWidth(cell)) }
        }
        let prefix = String(repeating: " ", count: indent)
        return all.map { row in
            var line = prefix
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - Self.displayWidth(cell) + 2)
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// Terminal columns taken by `text`: two for East Asian wide characters, one otherwise.
    public static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6:
                width + 2
            default:
                width + 1
            }
        }
    }
}

/// How numbers read in the reports.
public enum DisplayFormat {
    /// Bytes in decimal units with one decimal: `812B`, `12.3kB`, `2.2MB`, `1.5GB`.
    public static func bytes(_ count: Int) -> String {
        let value = Double(count)
        switch value {
        case ..<1_000: return "\(count)B"
        case ..<1_000_000: return oneDecimal(value / 1_000) + "kB"
        case ..<1_000_000_000: return oneDecimal(value / 1_000_000) + "MB"
        default: return oneDecimal(value / 1_000_000_000) + "GB"
        }
    }

    /// Bits per second: `65 kb/s`, `928 kb/s`, `2.63 Mb/s`.
    public static func bitrate(_ bitsPerSecond: Int) -> String {
        if bitsPerSecond >= 1_000_000 { return fixedNumber(Double(bitsPerSecond) / 1_000_000, digits: 2) + " Mb/s" }
        if bitsPerSecond >= 1_000 { return "\(Int((Double(bitsPerSecond) / 1_000).rounded())) kb/s" }
        return "\(bitsPerSecond) b/s"
    }

    /// Seconds with three decimals: `6.006 s`.
    public static func seconds(_ value: Double) -> String { fixedNumber(value, digits: 3) + " s" }

    /// A frame rate without needless zeros: `30`, `29.97`, `23.976`.
    public static func frameRate(_ value: Double) -> String {
        var text = fixedNumber(value, digits: 3)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    public static func oneDecimal(_ value: Double) -> String { fixedNumber(value, digits: 1) }

    /// `1 error`, `2 errors`; `count(2, "discontinuit", plural: "ies", singular: "y")` for irregular words.
    public static func count(_ value: Int, _ stem: String, plural: String = "s", singular: String = "") -> String {
        "\(value) \(stem)\(value == 1 ? singular : plural)"
    }
}
