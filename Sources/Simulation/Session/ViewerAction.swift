import Playback

/// Something the viewer does at a moment of the session (`--rotate`, `--select`, `--seek`, `--subtitles`).
public struct ViewerAction: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The phone turned; the player's drawing area becomes `viewport` (nil = no cap).
        case rotate(Orientation, viewport: Viewport?)
        /// A pick in the quality menu; `name` is how the user called it ("540p", "auto").
        case select(QualityChoice, name: String)
        /// Jump to a media position, seconds.
        case seek(toSeconds: Double)
        /// A subtitle language, or nil for off.
        case subtitles(String?)
    }

    /// Virtual time of the action, seconds since the session began.
    public var timeSeconds: Double
    public var kind: Kind

    public init(timeSeconds: Double, kind: Kind) {
        self.timeSeconds = timeSeconds
        self.kind = kind
    }

    /// True when the action changes which levels the player may use, or what it plays (all but subtitles).
    public var constrainsLevels: Bool {
        if case .subtitles = kind { return false }
        return true
    }

    /// The player's drawing area after a rotation to `orientation`: `viewport`, or, without a screen (nil), an
    /// empty area of that orientation.
    public static func playerArea(_ viewport: Viewport?, _ orientation: Orientation) -> Viewport {
        viewport ?? Viewport(widthPixels: 0, heightPixels: 0, orientation: orientation)
    }
}

/// A phone screen in points and its scale; gives the player's drawing area in each orientation.
public struct DeviceScreen: Sendable, Hashable {
    public var widthPoints: Int
    public var heightPoints: Int
    public var scale: Int

    public init(widthPoints: Int, heightPoints: Int, scale: Int) {
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.scale = scale
    }

    /// Portrait: the inline 16:9 player across the short side. Landscape: full screen.
    public func viewport(_ orientation: Orientation) -> Viewport {
        let short = min(widthPoints, heightPoints) * scale
        let long = max(widthPoints, heightPoints) * scale
        switch orientation {
        case .portrait: return Viewport(widthPixels: short, heightPixels: short * 9 / 16, orientation: .portrait)
        case .landscape: return Viewport(widthPixels: long, heightPixels: short, orientation: .landscape)
        }
    }
}
