/// Writes the head of a response: status line, `Date`, the response's own fields, `Content-Length` (except
/// where the status has no content) and `Connection: close` when the connection ends after it.
///
///     HTTP/1.1 200 OK\r\n
///     Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n
///     Content-Type: application/vnd.apple.mpegurl\r\n
///     …
///     Content-Length: 2048\r\n
///     \r\n
///
/// The fields between `Date` and the end (the "field block") do not depend on the connection, so a prepared
/// answer keeps them serialised and only the first two lines and the last are written per request.
public enum ResponseHead {
    /// `name: value\r\n` for every field, then `Content-Length` unless `status` has no content.
    public static func fieldBlock(status: Int, headers: [(String, String)], contentLength: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 * headers.count + 32)
        for (name, value) in headers {
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            // A value never carries a line break onto the wire, whatever its source.
            for byte in value.utf8 { out.append(byte == 13 || byte == 10 ? 32 : byte) }
            out.append(contentsOf: "\r\n".utf8)
        }
        if !HTTPStatus.hasNoContent(status) {
            out.append(contentsOf: "Content-Length: ".utf8)
            out.append(contentsOf: String(contentLength).utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        return out
    }

    /// The whole head: `HTTP/1.1 status reason`, `dateLine` (`Date: …\r\n`), `fieldBlock`, then `Connection:
    /// close` when `closes`, or `Connection: keep-alive` for an HTTP/1.0 client that keeps the connection.
    public static func bytes(
        status: Int, dateLine: [UInt8], fieldBlock: [UInt8], closes: Bool, version: HTTPVersion
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(fieldBlock.count + dateLine.count + 64)
        out.append(contentsOf: statusLine(status))
        out.append(contentsOf: dateLine)
        out.append(contentsOf: fieldBlock)
        if closes {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if version == .http10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
    }

    private static let ok = Array("HTTP/1.1 200 OK\r\n".utf8)

    static func statusLine(_ status: Int) -> [UInt8] {
        status == 200 ? ok : Array("HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n".utf8)
    }

    /// `Date: <IMF-fixdate>\r\n` for `secondsSinceEpoch`.
    public static func dateLine(_ secondsSinceEpoch: Int64) -> [UInt8] {
        Array("Date: \(HTTPDate.format(secondsSinceEpoch))\r\n".utf8)
    }
}
