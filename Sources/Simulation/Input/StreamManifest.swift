import Foundation
import HLS
import JSON
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
    /// The level listed first in the multivariant playlist, where hls.js starts (0 for a Sabre manifest,
    /// which lists its ladder ascending).
    public var firstListedLevel = 0
    /// AVERAGE-BANDWIDTH of each level, kbit/s, when the playlist gives it (nil: not known). Only the `hlsjs`
    /// rule is told it, as hls.js reads it; the other rules and QoE count the nominal ladder.
    public var averageBitratesKilobitsPerSecond: [Double?] = []
    /// Sizes of the audio rendition's segments, bits, in order, when the stream has one apart from its variants
    /// (an HLS EXT-X-MEDIA audio rendition); empty otherwise. Only `hlsjs` sessions download them.
    public var audioSegmentSizesBits: [Double] = []

    public init(
        segmentDurationMilliseconds: Double, bitratesKilobitsPerSecond: [Double], segmentSizesBits: [[Double]],
        resolutions: [(width: Int, height: Int)?]? = nil, levelNames: [String]? = nil
    ) throws(SimulationError) {
        try Self.check(
            segmentDurationMilliseconds: segmentDurationMilliseconds,
            bitratesKilobitsPerSecond: bitratesKilobitsPerSecond,
            segmentSizesBits: segmentSizesBits)
        self.segmentDurationMilliseconds = segmentDurationMilliseconds
        self.bitratesKilobitsPerSecond = bitratesKilobitsPerSecond
        self.segmentSizesBits = segmentSizesBits
        segmentSizesBytes = Self.wholeBytes(segmentSizesBits)
        let levels = bitratesKilobitsPerSecond.count
        self.resolutions =
            resolutions.map { $0.count == levels ? $0 : Array(repeating: nil, count: levels) }
            ?? Array(repeating: nil, count: levels)
        self.levelNames = levelNames.map { $0.count == levels ? $0 : [] } ?? []
        if self.levelNames.isEmpty {
            self.levelNames = (0..<levels).map { level in
                if let r = self.resolutions[level] { return "\(r.height)p" }
                return "\(Int(bitratesKilobitsPerSecond[level].rounded()))k"
            }
        }
    }

    /// The ranges of `SimulationLimits`: segment duration 10 ms … 10 min, at most 100,000 segments and 24 h in
    /// all, 1 … 64 levels with strictly ascending bitrates of 1 kbit/s … 100 Gbit/s, every size 1 … 1e12 bits.
    private static func check(
        segmentDurationMilliseconds: Double, bitratesKilobitsPerSecond: [Double], segmentSizesBits: [[Double]]
    ) throws(SimulationError) {
        typealias Limits = SimulationLimits
        guard Limits.segmentMilliseconds.contains(segmentDurationMilliseconds) else {
            throw .outOfRange(
                what: "manifest", field: "segment duration", value: segmentDurationMilliseconds,
                allowed: TraceLimits.text(Limits.segmentMilliseconds, "ms"))
        }
        guard !bitratesKilobitsPerSecond.isEmpty else {
            throw .invalidInput(what: "manifest", reason: "needs at least one level with a positive bitrate")
        }
        guard bitratesKilobitsPerSecond.count <= Limits.maximumLevels else {
            throw .invalidInput(
                what: "manifest",
                reason: "\(bitratesKilobitsPerSecond.count) levels; a ladder has at most \(Limits.maximumLevels)")
        }
        if let bad = bitratesKilobitsPerSecond.firstIndex(where: { !Limits.levelKilobitsPerSecond.contains($0) }) {
            throw .outOfRange(
                what: "manifest", field: "bitrate of level \(bad)", value: bitratesKilobitsPerSecond[bad],
                allowed: TraceLimits.text(Limits.levelKilobitsPerSecond, "kbit/s"))
        }
        guard zip(bitratesKilobitsPerSecond, bitratesKilobitsPerSecond.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw .invalidInput(what: "manifest", reason: "bitrates must be strictly ascending")
        }
        guard !segmentSizesBits.isEmpty else { throw .invalidInput(what: "manifest", reason: "has no segments") }
        guard segmentSizesBits.count <= Limits.maximumSegments else {
            throw .invalidInput(
                what: "manifest",
                reason: "\(segmentSizesBits.count) segments; a stream has at most \(Limits.maximumSegments)")
        }
        let streamSeconds = Double(segmentSizesBits.count) * segmentDurationMilliseconds / 1000
        guard streamSeconds <= Limits.maximumStreamSeconds else {
            throw .outOfRange(
                what: "manifest", field: "stream length (segments × duration, s)", value: streamSeconds,
                allowed: "0…\(plainNumber(Limits.maximumStreamSeconds)) s")
        }
        if let bad = segmentSizesBits.firstIndex(where: {
            $0.count != bitratesKilobitsPerSecond.count || $0.contains { !Limits.segmentBits.contains($0) }
        }) {
            throw .invalidInput(
                what: "manifest",
                reason: "segment \(bad) needs \(bitratesKilobitsPerSecond.count) sizes, one per level, each "
                    + TraceLimits.text(Limits.segmentBits, "bits"))
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
            && a.resolutions.map { $0.map { [$0.width, $0.height] } }
                == b.resolutions.map { $0.map { [$0.width, $0.height] } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segmentDurationMilliseconds)
        hasher.combine(bitratesKilobitsPerSecond)
        hasher.combine(segmentSizesBits)
    }
}

extension StreamManifest {
    /// Decodes Sabre's movie JSON: `{"segment_duration_ms", "bitrates_kbps", "segment_sizes_bits"}` (and optional
    /// `"resolutions": ["640x360", …]`), read with the strict `JSONValue` reader. Known ladders get their
    /// resolutions (the Pensieve Envivio ladder: 180p…1080p).
    public init(movieJSON: [UInt8], name: String) throws(SimulationError) {
        let expected =
            "not a movie manifest: expected {\"segment_duration_ms\", \"bitrates_kbps\", \"segment_sizes_bits\"}"
        let root: JSONValue
        do {
            root = try JSONValue(parsing: movieJSON)
        } catch {
            throw .invalidInput(
                what: name, reason: error.isSyntaxError ? "not a movie manifest: not valid JSON: \(error)" : "\(error)")
        }
        func numbers(_ value: JSONValue?) -> [Double]? {
            guard case .array(let items)? = value else { return nil }
            let numbers = items.compactMap(\.traceNumber)
            return numbers.count == items.count ? numbers : nil
        }
        guard let duration = root["segment_duration_ms"]?.traceNumber,
            let bitrates = numbers(root["bitrates_kbps"]),
            case .array(let rows)? = root["segment_sizes_bits"]
        else { throw .invalidInput(what: name, reason: expected) }
        var sizes: [[Double]] = []
        sizes.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard let numbers = numbers(row) else {
                throw .invalidInput(what: name, reason: "segment_sizes_bits[\(index)] must be a list of numbers")
            }
            sizes.append(numbers)
        }
        var resolutions: [(width: Int, height: Int)?]?
        if case .array(let items)? = root["resolutions"] {
            resolutions = items.map { item in
                guard case .string(let text) = item else { return nil }
                let parts = text.split(separator: "x").compactMap { Int($0) }
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
        }
        if resolutions == nil, bitrates == [300, 750, 1200, 1850, 2850, 4300] {
            // Pensieve's EnvivioDash3 ladder (video_server/Manifest.mpd).
            resolutions = [(320, 180), (640, 360), (768, 432), (1024, 576), (1280, 720), (1920, 1080)]
        }
        do {
            try self.init(
                segmentDurationMilliseconds: duration, bitratesKilobitsPerSecond: bitrates, segmentSizesBits: sizes,
                resolutions: resolutions)
        } catch .outOfRange(_, let field, let value, let allowed) {
            throw .outOfRange(what: name, field: field, value: value, allowed: allowed)
        } catch .invalidInput(_, let reason) {
            throw .invalidInput(what: name, reason: reason)
        }
    }

    public init(movieJSON: Data, name: String) throws(SimulationError) {
        try self.init(movieJSON: [UInt8](movieJSON), name: name)
    }
}
