import Notation

/// Turns the request path exactly as the client sent it into safe path segments below the served folder, or a
/// rejection. The only place percent-escapes are decoded (once: `%252e` stays the three characters `%2e`).
///
///     PathGuard.check("/v1/videos/a%20b/master.m3u8")  // .success(["v1", "videos", "a b", "master.m3u8"])
///     PathGuard.check("/%2e%2e/etc/passwd")            // .failure(.badRequest)
///     PathGuard.check("/.git/config")                  // .failure(.notFound)
///
/// Rejected: a path not starting with `/`, raw or encoded backslashes, NUL and other control bytes, encoded
/// slashes (`%2f`, which would change the segment structure), malformed escapes, invalid UTF-8, `.` and `..`
/// segments (raw or encoded), and paths longer than `maximumBytes` (414). Hidden names (a segment starting
/// with `.`) answer 404 as if absent. Empty segments (`//`) are skipped. Symbolic links are the file system's
/// business: `ServedFolder` refuses any that lead outside the folder.
public enum PathGuard {
    public enum Rejection: Error, Sendable, Hashable {
        /// 400: the path is malformed or tries to leave the folder.
        case badRequest(String)
        /// 404: a hidden file, answered as if it did not exist.
        case notFound
        /// 414: longer than the limit.
        case tooLong
    }

    public static let defaultMaximumBytes = 2048

    public static func check(_ rawPath: String, maximumBytes: Int = defaultMaximumBytes) -> Result<[String], Rejection>
    {
        let bytes = Array(rawPath.utf8)
        guard bytes.count <= maximumBytes else { return .failure(.tooLong) }
        guard bytes.first == UInt8(ascii: "/") else { return .failure(.badRequest("path must start with /")) }
        var segments: [String] = []
        var sawHidden = false
        for rawSegment in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            switch decode(rawSegment) {
            case .failure(let rejection):
                return .failure(rejection)
            case .success(let segment):
                if segment == "." || segment == ".." { return .failure(.badRequest("dot segment")) }
                if segment.hasPrefix(".") { sawHidden = true }
                segments.append(segment)
            }
        }
        return sawHidden ? .failure(.notFound) : .success(segments)
    }

    /// Percent-decodes one segment and checks every resulting byte.
    private static func decode(_ raw: ArraySlice<UInt8>) -> Result<String, Rejection> {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            var byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.endIndex,
                    let high = PercentEncoding.hexValue(raw[index + 1]),
                    let low = PercentEncoding.hexValue(raw[index + 2])
                else { return .failure(.badRequest("malformed percent-escape")) }
                byte = high << 4 | low
                index += 3
            } else {
                index += 1
            }
            switch byte {
            case 0: return .failure(.badRequest("NUL in path"))
            case UInt8(ascii: "/"): return .failure(.badRequest("encoded slash"))
            case UInt8(ascii: "\\"): return .failure(.badRequest("backslash"))
            case 1..<0x20, 0x7f: return .failure(.badRequest("control character"))
            default: decoded.append(byte)
            }
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            return .failure(.badRequest("path is not UTF-8"))
        }
        return .success(text)
    }
}
