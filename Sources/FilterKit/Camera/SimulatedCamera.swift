import Foundation
import MediaTime
import Synchronization

/// A deterministic stand-in for the phone camera: a seeded scene and camera-like timestamps.
///
///     let camera = SimulatedCamera(.init(width: 1280, height: 720, framesPerSecond: 30, durationSeconds: 4, seed: 7))
///     for capture in camera.captures {                  // dropped frames are already left out
///         let frame = camera.frame(for: capture)        // CameraFrame: RGBA image + rational timestamp
///     }
///
/// The scene: a sky gradient over warm ground, a 24-patch colour chart (the classic ColorChecker layout,
/// sRGB values), four skin-tone faces, a disc and a square that move with time, per-pixel sensor noise, and
/// a burnt-in counter `#frame  mm:ss.mmm` drawn with `BitmapFont`, so a viewer sees time pass.
///
/// Timestamps are in a 90 kHz timescale: frame i is due at i · 90000 / fps, moved by up to
/// ± `timestampJitter` of a frame duration, and with probability `dropProbability` a frame is dropped (never
/// the first); jitter ≤ 0.25 keeps timestamps strictly increasing. Everything comes from `seed`: the same
/// configuration gives the same bytes and timestamps, a different seed different noise and motion phase.
public struct SimulatedCamera: Sendable {
    public enum Orientation: String, Sendable, Hashable {
        /// Wider than tall.
        case landscape
        /// Taller than wide: the configured size is swapped if needed.
        case portrait
    }

    public struct Configuration: Sendable, Hashable {
        public var width: Int
        public var height: Int
        public var framesPerSecond: Int
        public var durationSeconds: Double
        public var orientation: Orientation
        public var seed: UInt64
        /// Maximum timestamp offset as a fraction of a frame duration, 0…0.25.
        public var timestampJitter: Double
        /// Probability that a frame is dropped, 0…1.
        public var dropProbability: Double
        /// Standard deviation of the sensor noise, in 8-bit code values.
        public var noiseLevel: Double

        public init(
            width: Int = 1280, height: Int = 720, framesPerSecond: Int = 30, durationSeconds: Double = 10,
            orientation: Orientation = .landscape, seed: UInt64 = 1, timestampJitter: Double = 0,
            dropProbability: Double = 0, noiseLevel: Double = 2
        ) {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.durationSeconds = durationSeconds
            self.orientation = orientation
            self.seed = seed
            self.timestampJitter = timestampJitter
            self.dropProbability = dropProbability
            self.noiseLevel = noiseLevel
        }
    }

    /// One delivered frame slot: which nominal frame it is and when it was captured.
    public struct Capture: Sendable, Hashable {
        /// The nominal frame number (gaps where frames were dropped).
        public var index: Int
        public var timestamp: Timestamp
    }

    public static let timescale: Int32 = 90_000

    public let configuration: Configuration
    /// Frame size after applying the orientation.
    public let width: Int, height: Int
    /// Every frame the camera delivers over its duration, in order.
    public let captures: [Capture]
    /// The scene, made on the first frame asked for (shared by copies of this camera).
    private let scene = LazyScene()

    public init(_ configuration: Configuration) {
        precondition(configuration.width > 0 && configuration.height > 0 && configuration.framesPerSecond > 0)
        self.configuration = configuration
        let long = max(configuration.width, configuration.height),
            short = min(configuration.width, configuration.height)
        switch configuration.orientation {
        case .landscape: (width, height) = (long, short)
        case .portrait: (width, height) = (short, long)
        }
        let count = max(1, Int((configuration.durationSeconds * Double(configuration.framesPerSecond)).rounded()))
        let jitter = min(max(configuration.timestampJitter, 0), 0.25)
        var captures = [Capture]()
        for index in 0..<count {
            let dropRoll = Self.unit(configuration.seed, 0xD50F, UInt64(index))
            if index > 0 && dropRoll < configuration.dropProbability { continue }
            let nominal = Double(index) * Double(Self.timescale) / Double(configuration.framesPerSecond)
            let offset =
                (Self.unit(configuration.seed, 0x7177, UInt64(index)) * 2 - 1) * jitter
                * Double(Self.timescale) / Double(configuration.framesPerSecond)
            let value = index == 0 ? 0 : Int64((nominal + offset).rounded())
            captures.append(Capture(index: index, timestamp: Timestamp(value, timescale: Self.timescale)))
        }
        self.captures = captures
    }

    /// The nominal duration of one frame.
    public var frameDuration: Timestamp {
        Timestamp(Int64(Self.timescale) / Int64(configuration.framesPerSecond), timescale: Self.timescale)
    }

    /// The last capture at or before `seconds` (the first one for earlier times).
    public func capture(atSeconds seconds: Double) -> Capture {
        captures.last { $0.timestamp.seconds <= seconds + 1e-9 } ?? captures[0]
    }

    /// How a frame is drawn: the same bytes either way.
    public enum DrawingPath: String, Sendable {
        /// The still parts drawn once per camera, noise from a precomputed field (see `SceneRenderer`).
        case fast
        /// Every part drawn for every frame and the noise added one sample at a time: the yardstick.
        case reference
    }

    /// The frame of one capture, drawn in `format` (`.yuv420p` is converted from the RGBA drawing).
    public func frame(for capture: Capture, format: Frame.PixelFormat = .rgba, path: DrawingPath = .fast) -> CameraFrame
    {
        let scene = self.scene.renderer {
            SceneRenderer(width: width, height: height, seed: configuration.seed, noiseLevel: configuration.noiseLevel)
        }
        let seconds = capture.timestamp.seconds
        var image =
            path == .fast
            ? scene.frame(index: capture.index, seconds: seconds)
            : scene.referenceFrame(index: capture.index, seconds: seconds)
        if format == .yuv420p { image = YUV420Conversion.yuv420(from: image) }
        return CameraFrame(index: capture.index, timestamp: capture.timestamp, image: image)
    }

    /// The frame shown at `seconds` (see `capture(atSeconds:)`).
    public func frame(atSeconds seconds: Double, format: Frame.PixelFormat = .rgba) -> CameraFrame {
        frame(for: capture(atSeconds: seconds), format: format)
    }

    /// A deterministic uniform number in [0, 1) for (seed, stream, counter).
    static func unit(_ seed: UInt64, _ stream: UInt64, _ counter: UInt64) -> Double {
        let hash = SplitMix64.mix(seed &* 0x9E37_79B9_7F4A_7C15 ^ SplitMix64.mix(stream ^ SplitMix64.mix(counter)))
        return Double(hash >> 11) * 0x1p-53
    }
}

/// A `SceneRenderer` made once, on first use, by whichever thread asks first.
private final class LazyScene: Sendable {
    private let made = Mutex<SceneRenderer?>(nil)

    func renderer(_ make: () -> SceneRenderer) -> SceneRenderer {
        made.withLock { made in
            if let made { return made }
            let renderer = make()
            made = renderer
            return renderer
        }
    }
}
