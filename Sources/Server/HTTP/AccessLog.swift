import Notation

/// Access log lines in the Common Log Format:
/// `127.0.0.1 - - [29/Nov/2026:19:15:44 +0000] "GET /v1/videos HTTP/1.1" 200 512`.
public enum AccessLog {
    /// One line (without the newline). `bytes` nil prints `-` (nothing sent, e.g. HEAD or 304).
    public static func line(
        client: String, secondsSinceEpoch: Int64, requestLine: String, status: Int, bytes: Int64?
    ) -> String {
        "\(client) - - [\(timestamp(secondsSinceEpoch))] \"\(sanitized(requestLine))\" \(status) \(bytes.map(String.init) ?? "-")"
    }

    /// `29/Nov/2026:19:15:44 +0000` (UTC).
    public static func timestamp(_ seconds: Int64) -> String {
        let (days, secondOfDay) = CivilDate.split(secondsSinceEpoch: Int(seconds))
        let (year, month, day) = CivilDate.date(days: days)
        let two = HTTPDate.twoDigits
        return "\(two(day))/\(HTTPDate.months[month - 1])/\(year):"
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) +0000"
    }

    /// Escapes quotes, backslashes and control bytes so a hostile request cannot forge log lines.
    static func sanitized(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
