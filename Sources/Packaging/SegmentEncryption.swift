import HLS

/// Which content key encrypts which segment of a video, and the EXT-X-KEY tags that tell players (RFC 8216bis
/// §4.4.4.4, §5.2): a pure decision, with the key bytes left to the adapter that makes them.
///
/// Segments are numbered from 0 in every track alike, so segment `i` of every video rendition and of the audio
/// uses the same key: key `firstKey + ⌊i / segmentsPerKey⌋` (key `firstKey` for all of them when
/// `segmentsPerKey` is nil; a re-package numbers its keys past those of the package it replaces). Each key
/// has its own explicit IV: the video's 8 random `ivPrefix` bytes followed by the key's index as a 64-bit
/// big-endian number, so no two keys of a video share an IV.
///
///     let plan = SegmentEncryption(videoID: "warm-film", segmentsPerKey: 5, ivPrefix: eightRandomBytes)
///     plan.keyIndex(forSegment: 12)   // 2
///     plan.keyURI(forKey: 2)          // "/v1/videos/warm-film/keys/2.key"
///
/// Subtitle (WebVTT) segments and fMP4 init sections stay clear; the playlists say so by giving subtitle
/// playlists no key and writing EXT-X-MAP before the first EXT-X-KEY.
public struct SegmentEncryption: Hashable, Sendable {
    /// The catalogue id of the video (its folder name on the server), part of every key URI.
    public var videoID: String
    /// How many consecutive segments share a key; nil means one key for the whole video.
    public var segmentsPerKey: Int?
    /// The first 8 bytes of every IV of this video.
    public var ivPrefix: [UInt8]
    /// The number of the first key (0 unless keys of an earlier package of the video are still in use).
    public var firstKey: Int

    /// - Precondition: `ivPrefix` holds 8 bytes, `segmentsPerKey`, when given, is at least 1, `firstKey` ≥ 0.
    public init(videoID: String, segmentsPerKey: Int?, ivPrefix: [UInt8], firstKey: Int = 0) {
        precondition(ivPrefix.count == 8, "an IV prefix is 8 bytes, got \(ivPrefix.count)")
        precondition((segmentsPerKey ?? 1) >= 1, "segmentsPerKey must be at least 1, got \(segmentsPerKey ?? 0)")
        self.videoID = videoID
        self.segmentsPerKey = segmentsPerKey
        self.ivPrefix = ivPrefix
        self.firstKey = max(firstKey, 0)
    }

    /// The key that encrypts segment `index` (0-based, counted from the start of the recording).
    public func keyIndex(forSegment index: Int) -> Int {
        guard let segmentsPerKey else { return firstKey }
        return firstKey + index / segmentsPerKey
    }

    /// True when segment `index` is the first of its key's period.
    public func startsKeyPeriod(segment index: Int) -> Bool {
        guard let segmentsPerKey else { return index == 0 }
        return index % segmentsPerKey == 0
    }

    /// The 16-byte IV of key `index`.
    public func iv(forKey index: Int) -> [UInt8] {
        ivPrefix + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(index) >> (56 - 8 * $0)) }
    }

    /// `/v1/videos/{id}/keys/{n}.key`: the root-relative URI `filterz serve --keys` answers for key `index`.
    public func keyURI(forKey index: Int) -> String {
        "/v1/videos/" + Self.percentEncoded(videoID) + "/keys/\(index).key"
    }

    /// `EXT-X-KEY:METHOD=AES-128,URI="…",IV=0x…` for key `index` (also the EXT-X-SESSION-KEY).
    public func key(forKey index: Int) -> Key {
        Key(method: .aes128, uri: keyURI(forKey: index), iv: HexadecimalSequence(bytes: iv(forKey: index)))
    }

    /// The EXT-X-KEY tags to write before segment `index`: its key when it starts a key period or is the first
    /// segment of the playlist (`isFirstInPlaylist`, where a sliding window begins), none otherwise.
    public func keys(beforeSegment index: Int, isFirstInPlaylist: Bool) -> [Key] {
        isFirstInPlaylist || startsKeyPeriod(segment: index) ? [key(forKey: keyIndex(forSegment: index))] : []
    }

    /// A path segment with everything but RFC 3986 unreserved characters percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let isUnreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~")
            if isUnreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
            }
        }
        return out
    }
}
