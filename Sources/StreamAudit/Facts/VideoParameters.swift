/// What a video sequence parameter set says: the codec string's profile and level, and the picture size
/// after cropping (the size a player shows, which RESOLUTION must state).
public struct VideoParameters: Hashable, Sendable {
    public var codec: CodecFamily
    /// `profile_idc` (H.264) or `general_profile_idc` (H.265).
    public var profile: Int
    /// H.264: the constraint-flags byte; H.265: the general profile compatibility flags.
    public var compatibility: UInt32
    /// `level_idc` (H.264: 31 is level 3.1) or `general_level_idc` (H.265: 93 is level 3.1).
    public var level: Int
    /// H.265 general tier (false: Main tier).
    public var highTier: Bool
    public var width: Int
    public var height: Int
    /// Frames per second from the VUI timing information, when the stream carries it.
    public var framesPerSecond: Double?

    public init(
        codec: CodecFamily, profile: Int, compatibility: UInt32, level: Int, highTier: Bool = false, width: Int,
        height: Int, framesPerSecond: Double? = nil
    ) {
        self.codec = codec
        self.profile = profile
        self.compatibility = compatibility
        self.level = level
        self.highTier = highTier
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
    }

    /// The RFC 6381 codec string: `avc1.PPCCLL` for H.264, `hvc1.P.C.TLL` for H.265 (constraint bytes left
    /// out: they are compared by neither players nor this audit).
    public var codecString: String {
        switch codec {
        case .h264:
            return "avc1." + Self.hex(profile) + Self.hex(Int(compatibility)) + Self.hex(level)
        case .hevc:
            var reversed: UInt32 = 0
            for bit in 0..<32 where compatibility & (1 << UInt32(bit)) != 0 { reversed |= 1 << UInt32(31 - bit) }
            return "hvc1.\(profile).\(String(reversed, radix: 16, uppercase: true)).\(highTier ? "H" : "L")\(level)"
        default:
            return codec.name
        }
    }

    private static func hex(_ value: Int) -> String {
        let text = String(value & 0xFF, radix: 16, uppercase: false)
        return text.count == 1 ? "0" + text : text
    }
}

/// The formats the audit knows by their bitstream; anything else keeps libav's codec name.
public enum CodecFamily: Hashable, Sendable {
    case h264, hevc, aac
    case other(String)

    public var name: String {
        switch self {
        case .h264: "h264"
        case .hevc: "hevc"
        case .aac: "aac"
        case .other(let name): name
        }
    }

    public var isVideoBitstream: Bool { self == .h264 || self == .hevc }
}
