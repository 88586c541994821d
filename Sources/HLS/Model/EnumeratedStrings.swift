/// Enumerated-string attribute values (RFC 8216bis §4.2). Each is an open set: values the spec does not define
/// are kept (and reported by the parser) so they round-trip.

/// EXT-X-MEDIA TYPE.
public struct MediaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let audio = MediaType(rawValue: "AUDIO")
    public static let video = MediaType(rawValue: "VIDEO")
    public static let subtitles = MediaType(rawValue: "SUBTITLES")
    public static let closedCaptions = MediaType(rawValue: "CLOSED-CAPTIONS")
    public static let known: [MediaType] = [.audio, .video, .subtitles, .closedCaptions]
    public var description: String { rawValue }
}

/// EXT-X-KEY / EXT-X-SESSION-KEY METHOD.
public struct EncryptionMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = EncryptionMethod(rawValue: "NONE")
    public static let aes128 = EncryptionMethod(rawValue: "AES-128")
    public static let sampleAES = EncryptionMethod(rawValue: "SAMPLE-AES")
    public static let sampleAESCTR = EncryptionMethod(rawValue: "SAMPLE-AES-CTR")
    public static let known: [EncryptionMethod] = [.none, .aes128, .sampleAES, .sampleAESCTR]
    public var description: String { rawValue }
}

/// EXT-X-STREAM-INF HDCP-LEVEL.
public struct HDCPLevel: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let type0 = HDCPLevel(rawValue: "TYPE-0")
    public static let type1 = HDCPLevel(rawValue: "TYPE-1")
    public static let none = HDCPLevel(rawValue: "NONE")
    public static let known: [HDCPLevel] = [.type0, .type1, .none]
    public var description: String { rawValue }
}

/// EXT-X-STREAM-INF VIDEO-RANGE.
public struct VideoRange: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let sdr = VideoRange(rawValue: "SDR")
    public static let hlg = VideoRange(rawValue: "HLG")
    public static let pq = VideoRange(rawValue: "PQ")
    public static let known: [VideoRange] = [.sdr, .hlg, .pq]
    public var description: String { rawValue }
}

/// EXT-X-PLAYLIST-TYPE.
public struct PlaylistType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let event = PlaylistType(rawValue: "EVENT")
    public static let vod = PlaylistType(rawValue: "VOD")
    public static let known: [PlaylistType] = [.event, .vod]
    public var description: String { rawValue }
}

/// EXT-X-SESSION-DATA FORMAT.
public struct SessionDataFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let json = SessionDataFormat(rawValue: "JSON")
    public static let raw = SessionDataFormat(rawValue: "RAW")
    public static let known: [SessionDataFormat] = [.json, .raw]
    public var description: String { rawValue }
}

/// EXT-X-PRELOAD-HINT TYPE.
public struct PreloadHintType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let part = PreloadHintType(rawValue: "PART")
    public static let map = PreloadHintType(rawValue: "MAP")
    public static let known: [PreloadHintType] = [.part, .map]
    public var description: String { rawValue }
}

/// EXT-X-STREAM-INF CLOSED-CAPTIONS: a group id (quoted-string) or the enumerated-string `NONE`.
public enum ClosedCaptionsReference: Hashable, Sendable {
    case none
    case group(String)
    /// The group id, nil for `NONE`.
    public var groupID: String? {
        if case .group(let id) = self { return id }
        return nil
    }
}
