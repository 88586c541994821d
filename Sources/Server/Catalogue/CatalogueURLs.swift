/// The root-relative URLs of the catalogue API (always with the `/v1` prefix, exactly once).
public enum CatalogueURLs {
    public static let prefix = "/v1/videos"

    /// `/v1/videos/<id>` with the id percent-encoded as one path segment.
    public static func video(_ videoID: String) -> String { prefix + "/" + encodeSegment(videoID) }

    public static func master(videoID: String) -> String { video(videoID) + "/master.m3u8" }

    public static func stream(videoID: String) -> String { video(videoID) + "/stream" }

    /// A file of the video, `relativePath` being `/`-separated segments below the video folder.
    public static func file(videoID: String, relativePath: String) -> String {
        video(videoID) + "/"
            + relativePath.split(separator: "/").map { encodeSegment(String($0)) }.joined(separator: "/")
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters and a few safe sub-delimiters.
    public static func encodeSegment(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
                UInt8(ascii: "@"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
