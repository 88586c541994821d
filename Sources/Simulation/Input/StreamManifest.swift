import Foundation
import Playback

/// The stream as the simulator sees it: a ladder and the size of every segment at every level.
///
/// Read from Sabre's movie JSON (`shared/manifests/`) or built from an HLS playlist by the CLI.
public struct StreamManifest: Sendable, Hashable {
    public var segmentDurationMilliseconds: Double
    /// Nominal bitrate of each level, kbit/s, ascending. QoE uses these.
    public var bitratesKilobitsPerSecond: [Double]
    /// `segmentSizesBits[k][level]`.
    public var segmentSizesBits: [[Double]] {
        didSet { segmentSizesBytes = Self.wholeBytes(segmentSizesBits) }
    }
    /// `segmentSizesBits` in whole bytes (what a player learns from a playlist), kept in step with it so that a
    /// session does not convert them again.
    public private(set) var segmentSizesBytes: [[Int]]
    /// Resolution of each level when known (for the viewport cap).
    public var resolutions: [(width: Int, height: Int)?]
    /// Display names of the levels (e.g. "540p"), for `--select` and reports.
    public var levelNames: [String]

    public init(
        segmentDurationMilliseconds: Double, bitratesKilobitsPerSecond: [Double], segmentSizesBits: [[Double]],
        resolutions: [(width: Int, height: Int)?]? = nil, levelNames: [String]? = nil
    ) throws(SimulationError) {
        guard segmentDurationMilliseconds > 0, segmentDurationMilliseconds.isFinite else {
            throw .invalidInput(what: "manifest", reason: "segment duration must be positive")
        }
        guard !bitratesKilobitsPerSecond.isEmpty, bitratesKilobitsPerSecond.allSatisfy({ $0 > 0 }) else {
            throw .invalidInput(what: "manifest", reason: "needs at least one level with a positive bitrate")
        }
        guard zip(bitratesKilobitsPerSecond, bitratesKilobitsPerSecond.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw .invalidInput(what: "manifest", reason: "bitrates must be strictly ascending")
        }
        guard !segmentSizesBits.isEmpty else { throw .invalidInput(what: "manifest", reason: "has no segments") }
        if let bad = segmentSizesBits.firstIndex(where: {
            $0.count != bitratesKilobitsPerSecond.count || $0.contains { !($0 > 0) || !$0.isFinite }
        }) {
            throw .invalidInput(
                what: "manifest",
                reason: "segment \(bad) needs \(bitratesKilobitsPerSecond.count) positive sizes, one per level")
        }
        self.segmentDurationMilliseconds = segmentDurationMilliseconds
        self.bitratesKilobitsPerSecond = bitratesKilobitsPerSecond
        self.segmentSizesBits = segmentSizesBits
        segmentSizesBytes = Self.wholeBytes(segmentSizesBits)
        let levels = bitratesKilobitsPerSecond.count
        self.resolutions = resolutions.map { $0.count == levels ? $0 : Array(repeating: nil, count: levels) }
            ?? Array(repeating: nil, count: levels)
        self.levelNames = levelNames.map { $0.count == levels ? $0 : [] } ?? []
        if self.levelNames.isEmpty {
            self.levelNames = (0..<levels).map { level in
                if let r = self.resolutions[level] { return "\(r.height)p" }
                return "\(Int(bitratesKilobitsPerSecond[level].rounded()))k"
            }
        }
    }

    static func wholeBytes(_ bits: [[Double]]) -> [[Int]] {
        bits.map { row in row.map { Int(($0 / 8).rounded()) } }
    }

    public var segmentCount: Int { segmentSizesBits.count }
    public var levelCount: Int { bitratesKilobitsPerSecond.count }
    public var segmentDurationSeconds: Double { segmentDurationMilliseconds / 1000 }

    /// The ladder as the quality selector sees it.
    public var variants: [VariantInfo] {
        bitratesKilobitsPerSecond.enumerated().map { level, kbps in
            VariantInfo(
                index: level, bandwidthBitsPerSecond: Int((kbps * 1000).rounded()),
                width: resolutions[level]?.width, height: resolutions[level]?.height)
        }
    }

    /// The same stream cut or repeated to `segments` segments (for sessions longer than the movie).
    public func repeated(toSegments segments: Int) -> StreamManifest {
        var copy = self
        copy.segmentSizesBits = (0..<max(segments, 1)).map { segmentSizesBits[$0 % segmentSizesBits.count] }
        return copy
    }

    public static func == (a: StreamManifest, b: StreamManifest) -> Bool {
        a.segmentDurationMilliseconds == b.segmentDurationMilliseconds
            && a.bitratesKilobitsPerSecond == b.bitratesKilobitsPerSecond && a.segmentSizesBits == b.segmentSizesBits
            && a.levelNames == b.levelNames
            && a.resolutions.map { $0.map { [$0.width, $0.height] } } == b.resolutions.map { $0.map { [$0.width, $0.height] } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segmentDurationMilliseconds)
        hasher.combine(bitratesKilobitsPerSecond)
        hasher.combine(segmentSizesBits)
    }
}

extension StreamManifest {
    private struct MovieFile: Decodable {
        var segment_duration_ms: Double
        var bitrates_kbps: [Double]
        var segment_sizes_bits: [[Double]]
        var resolutions: [String]?
    }

    /// Decodes Sabre's movie JSON: `{"segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"}`.
    /// Known ladders get their resolutions (the Pensieve Envivio ladder: 180p…1080p).
    public init(movieJSON: Data, name: String) throws(SimulationError) {
        let movie: MovieFile
        do {
            movie = try JSONDecoder().decode(MovieFile.self, from: movieJSON)
        } catch {
            throw .invalidInput(
                what: name,
                reason: "not a movie manifest: expected {\"segment_duration_ms\", \"bitrates_kbps\", \"segment_sizes_bits\"}")
        }
        var resolutions: [(width: Int, height: Int)?]? = movie.resolutions?.map { text in
            let parts = text.split(separator: "x").compactMap { Int($0) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        if resolutions == nil, movie.bitrates_kbps == [300, 750, 1200, 1850, 2850, 4300] {
            // Pensieve's EnvivioDash3 ladder (video_server/Manifest.mpd).
            resolutions = [(320, 180), (640, 360), (768, 432), (1024, 576), (1280, 720), (1920, 1080)]
        }
        try self.init(
            segmentDurationMilliseconds: movie.segment_duration_ms, bitratesKilobitsPerSecond: movie.bitrates_kbps,
            segmentSizesBits: movie.segment_sizes_bits, resolutions: resolutions)
    }
}
