/// Every tag of RFC 8216 and draft-pantos-hls-rfc8216bis (protocol version 13), named by its wire name.
public enum TagName: String, CaseIterable, Hashable, Sendable {
    // Basic tags (§4.4.1)
    case extm3u = "EXTM3U"
    case version = "EXT-X-VERSION"
    // Media or multivariant playlist tags (§4.4.2)
    case independentSegments = "EXT-X-INDEPENDENT-SEGMENTS"
    case start = "EXT-X-START"
    case define = "EXT-X-DEFINE"
    // Media playlist tags (§4.4.3)
    case targetDuration = "EXT-X-TARGETDURATION"
    case mediaSequence = "EXT-X-MEDIA-SEQUENCE"
    case discontinuitySequence = "EXT-X-DISCONTINUITY-SEQUENCE"
    case endList = "EXT-X-ENDLIST"
    case playlistType = "EXT-X-PLAYLIST-TYPE"
    case iFramesOnly = "EXT-X-I-FRAMES-ONLY"
    case partInf = "EXT-X-PART-INF"
    case serverControl = "EXT-X-SERVER-CONTROL"
    // Media segment tags (§4.4.4)
    case extinf = "EXTINF"
    case byteRange = "EXT-X-BYTERANGE"
    case discontinuity = "EXT-X-DISCONTINUITY"
    case key = "EXT-X-KEY"
    case map = "EXT-X-MAP"
    case programDateTime = "EXT-X-PROGRAM-DATE-TIME"
    case gap = "EXT-X-GAP"
    case bitrate = "EXT-X-BITRATE"
    case part = "EXT-X-PART"
    // Media metadata tags (§4.4.5)
    case dateRange = "EXT-X-DATERANGE"
    case skip = "EXT-X-SKIP"
    case preloadHint = "EXT-X-PRELOAD-HINT"
    case renditionReport = "EXT-X-RENDITION-REPORT"
    // Multivariant playlist tags (§4.4.6)
    case media = "EXT-X-MEDIA"
    case streamInf = "EXT-X-STREAM-INF"
    case iFrameStreamInf = "EXT-X-I-FRAME-STREAM-INF"
    case sessionData = "EXT-X-SESSION-DATA"
    case sessionKey = "EXT-X-SESSION-KEY"
    case contentSteering = "EXT-X-CONTENT-STEERING"

    /// Which kind of playlist a tag may appear in.
    public enum Scope: Hashable, Sendable {
        /// EXTM3U, EXT-X-VERSION, EXT-X-INDEPENDENT-SEGMENTS, EXT-X-START, EXT-X-DEFINE.
        case either
        /// Media playlist tags, media segment tags, media metadata tags.
        case media
        /// Multivariant playlist tags.
        case multivariant
    }

    public var scope: Scope {
        switch self {
        case .extm3u, .version, .independentSegments, .start, .define: .either
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering: .multivariant
        default: .media
        }
    }

    /// True for tags that describe the next media segment (§4.4.4 and EXT-X-DATERANGE): they start a segment.
    public var isMediaSegmentTag: Bool {
        switch self {
        case .extinf, .byteRange, .discontinuity, .key, .map, .programDateTime, .gap, .bitrate, .part, .dateRange:
            true
        default: false
        }
    }

    /// The name without `EXT-X-`, lower-case: `stream-inf`, `extinf`, `extm3u`.
    public var shortName: String {
        let raw = rawValue.hasPrefix("EXT-X-") ? String(rawValue.dropFirst(6)) : rawValue
        return raw.lowercased()
    }

    /// The section of draft-pantos-hls-rfc8216bis that defines the tag, e.g. `4.4.6.2`.
    public var specSection: String {
        switch self {
        case .extm3u: "4.4.1.1"
        case .version: "4.4.1.2"
        case .independentSegments: "4.4.2.1"
        case .start: "4.4.2.2"
        case .define: "4.4.2.3"
        case .targetDuration: "4.4.3.1"
        case .mediaSequence: "4.4.3.2"
        case .discontinuitySequence: "4.4.3.3"
        case .endList: "4.4.3.4"
        case .playlistType: "4.4.3.5"
        case .iFramesOnly: "4.4.3.6"
        case .partInf: "4.4.3.7"
        case .serverControl: "4.4.3.8"
        case .extinf: "4.4.4.1"
        case .byteRange: "4.4.4.2"
        case .discontinuity: "4.4.4.3"
        case .key: "4.4.4.4"
        case .map: "4.4.4.5"
        case .programDateTime: "4.4.4.6"
        case .gap: "4.4.4.7"
        case .bitrate: "4.4.4.8"
        case .part: "4.4.4.9"
        case .dateRange: "4.4.5.1"
        case .skip: "4.4.5.2"
        case .preloadHint: "4.4.5.3"
        case .renditionReport: "4.4.5.4"
        case .media: "4.4.6.1"
        case .streamInf: "4.4.6.2"
        case .iFrameStreamInf: "4.4.6.3"
        case .sessionData: "4.4.6.4"
        case .sessionKey: "4.4.6.5"
        case .contentSteering: "4.4.6.6"
        }
    }

    /// Wire names as bytes, in `allCases` order.
    static let wireNames: [[UInt8]] = allCases.map { Array($0.rawValue.utf8) }
    static let cases: [TagName] = allCases

    /// A direct-mapped table from a hash of the name's length and three of its bytes to `allCases` index + 1.
    /// The hash has no collisions among the spec's names (checked by a test), so a lookup is one probe and one
    /// byte comparison.
    static let slots: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        for (index, name) in wireNames.enumerated() {
            name.withUnsafeBufferPointer { table[slot($0, 0..<name.count)] = UInt8(index + 1) }
        }
        return table
    }()

    @inline(__always)
    static func slot(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        let n = range.count
        let s = range.lowerBound
        return (n &* 2 &+ Int(bytes[s + min(6, n - 1)]) &* 11 &+ Int(bytes[s + n - 1]) &* 5 &+ Int(bytes[s + n / 2]))
            & 511
    }

    /// The tag whose wire name is `bytes[range]` (without `#` and `:`), or nil.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> TagName? {
        let n = range.count
        guard n >= 3 && n <= 31 else { return nil }
        let index = Int(slots[slot(bytes, range)])
        guard index != 0 else { return nil }
        let matches = wireNames[index - 1].withUnsafeBytes { name -> Bool in
            guard name.count == n, let base = bytes.baseAddress else { return false }
            let line = UnsafeRawPointer(base + range.lowerBound)
            // Names are 6 to 28 bytes: compare eight at a time, the last word overlapping.
            guard n >= 8 else {
                for i in 0..<n where name[i] != line.load(fromByteOffset: i, as: UInt8.self) { return false }
                return true
            }
            var i = 0
            while i + 8 <= n {
                if name.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    != line.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                {
                    return false
                }
                i += 8
            }
            return i == n
                || name.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                    == line.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        }
        return matches ? cases[index - 1] : nil
    }
}
