import JSON
import Notation

/// Access log lines in the Common Log Format:
/// `127.0.0.1 - - [29/Nov/2026:19:15:44 +0000] "GET /v1/videos HTTP/1.1" 200 512`.
public enum AccessLog {
    /// When an answer went through a shaped link (`serve --shape`), in milliseconds of the link's trace (which
    /// starts at the client's first request), so a session compares with a simulation request by request.
    public struct Timing: Sendable, Hashable {
        /// The answer was ready (its first byte then waited the link's latency).
        public var readyMilliseconds: Int64
        /// Its first and last bytes left (nil: it never did, the connection closed first).
        public var firstByteMilliseconds: Int64?
        public var lastByteMilliseconds: Int64?
        /// Bytes of the body sent (less than the length when cut short).
        public var bodyBytesSent: Int64

        public init(
            readyMilliseconds: Int64, firstByteMilliseconds: Int64?, lastByteMilliseconds: Int64?,
            bodyBytesSent: Int64
        ) {
            self.readyMilliseconds = readyMilliseconds
            self.firstByteMilliseconds = firstByteMilliseconds
            self.lastByteMilliseconds = lastByteMilliseconds
            self.bodyBytesSent = bodyBytesSent
        }
    }

    /// One line (without the newline). `bytes` nil prints `-` (nothing sent, e.g. HEAD or 304). With `timing`
    /// (a shaped server) the line ends with ` ready=1.204 first=1.245 last=2.871 sent=52344`: seconds on the
    /// client's link, `-` for a byte that never left.
    public static func line(
        client: String, secondsSinceEpoch: Int64, requestLine: String, status: Int, bytes: Int64?,
        timing: Timing? = nil
    ) -> String {
        let base =
            "\(client) - - [\(timestamp(secondsSinceEpoch))] \"\(sanitized(requestLine))\" \(status) \(bytes.map(String.init) ?? "-")"
        guard let timing else { return base }
        func seconds(_ milliseconds: Int64?) -> String {
            guard let milliseconds else { return "-" }
            return fixedNumber(Double(milliseconds) / 1000, digits: 3)
        }
        return base
            + " ready=\(seconds(timing.readyMilliseconds)) first=\(seconds(timing.firstByteMilliseconds))"
            + " last=\(seconds(timing.lastByteMilliseconds)) sent=\(timing.bodyBytesSent)"
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
