import HLS
import Notation

/// Decides whether a URI inside a served playlist leads, for a browser, back to this server and into the same
/// video, so that the viewer's token may be appended to it. Players resolve playlist URIs with the WHATWG URL
/// Standard, which reads some strings very differently from RFC 3986: backslashes are slashes in http(s) URLs,
/// tabs and line breaks are removed anywhere, and leading or trailing control bytes and spaces are trimmed, so
/// `\\host\a.m3u8`, `/\host/a`, `\t//host/a` and `\u{1}//host/a` all lead to another host. This resolves the
/// reference the same way and answers yes only when the result is a path below the video's root here:
///
/// - a reference with a scheme (`http:`, `data:`, …) is never signed, even one naming this server;
/// - one starting with two slashes (either kind) names another authority: never signed;
/// - otherwise the path is resolved against the playlist's folder (`.`, `..`, `%2e` and `%2e%2e` segments
///   as the URL Standard treats them, empty segments dropped as the server drops them), percent-decoded, and
///   must start with the video's root segments and go at least one segment further.
public enum SameVideoReference {
    /// - Parameters:
    ///   - uri: the reference as written in the playlist.
    ///   - directory: the decoded path segments of the folder holding the playlist (`["v1", "videos", "a", "v0"]`).
    ///   - root: the decoded path segments of the video's root (`["v1", "videos", "a"]` or `["a"]`).
    public static func staysWithin(_ uri: String, directory: [String], root: [String]) -> Bool {
        var bytes = Array(uri.utf8)
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if hasScheme(bytes) { return false }
        let pathEnd = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let path = bytes[..<pathEnd].map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 }
        if path.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) { return false }
        var segments = path.first == UInt8(ascii: "/") ? [] : directory
        let parts = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for part in parts {
            switch dotKind(part) {
            case .single:
                continue
            case .double:
                if !segments.isEmpty { segments.removeLast() }
            case .none:
                if part.isEmpty { continue }
                guard let decoded = PercentEncoding.percentDecoded(part), !decoded.contains("/") else { return false }
                segments.append(decoded)
            }
        }
        return segments.count > root.count && Array(segments.prefix(root.count)) == root
    }

    private enum DotKind { case single, double, none }

    /// `.` / `%2e` and `..` / `.%2e` / `%2e.` / `%2e%2e` (ASCII case-insensitive), as the URL Standard's path state.
    private static func dotKind(_ part: ArraySlice<UInt8>) -> DotKind {
        let text = String(decoding: part, as: UTF8.self).lowercased()
        switch text {
        case ".", "%2e": return .single
        case "..", ".%2e", "%2e.", "%2e%2e": return .double
        default: return .none
        }
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"` at the start.
    private static func hasScheme(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first, isAlpha(first) else { return false }
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: ":") { return true }
            guard
                isAlpha(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else { return false }
        }
        return false
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}
