/// A model of hls.js 1.6's automatic level selection with its default configuration (`AbrController`), to
/// predict what hls.js plays. Every constant is the hls.js option it models, with its default.
///
/// - Start: the default estimate is raised to the BANDWIDTH of the first variant listed in the multivariant
///   playlist (at most `abrEwmaDefaultEstimateMax`), and the first level is the highest whose BANDWIDTH that
///   estimate covers (`startLevel` undefined, so no bitrate test): in effect the first listed variant.
/// - Then (`findBestLevel`): from the top down, the first level whose bitrate fits under the estimate times
///   `abrBandWidthFactor` (0.95; `abrBandWidthUpFactor`, 0.7, above the level last loaded) and whose segment
///   would arrive before the buffer runs out; failing that, one that stalls less than `maxStarvationDelay`.
/// - While a segment loads (every 100 ms, from half its duration on): if it would not arrive before the
///   buffer runs out and a lower level's segment would, the next segment is forced to that level, and the load
///   is abandoned — at once when it would take more than twice as long as the lower one, else after the lower
///   one's load time — then the lowest level follows and the estimator starts over (`_abandonRulesCheck`).
///
/// Its own `HLSJSBandwidthEstimator` is fed by `segmentLoaded` and by the abandonment check; the machine's
/// estimator is not read. docs/PLAYBACK.md lists what is not modelled.
public struct HLSJSRule: ABRRule {
    /// hls.js `abrBandWidthFactor`, default 0.95: the share of the estimate a level at or below the last one
    /// loaded may use.
    public static let bandwidthFactor = 0.95
    /// hls.js `abrBandWidthUpFactor`, default 0.7: the share of the estimate a level above it may use.
    public static let bandwidthUpFactor = 0.7
    /// hls.js `maxStarvationDelay`, default 4 s: the stall a selection may accept when none avoids one (at
    /// most one segment duration), and the start level's budget.
    public static let maxStarvationDelaySeconds = 4.0
    /// The interval of hls.js's abandonment check (`_abandonRulesCheck`, a 100 ms timer while a segment loads).
    public static let checkIntervalSeconds = 0.1
    /// Seconds a media playlist takes to load (hls.js `lastLevelLoadSec`, added with one time to first byte
    /// for a level whose playlist is not loaded yet): 0, as the simulator answers playlists at once.
    public static let levelLoadSeconds = 0.0

    public let name = "hlsjs"
    public internal(set) var estimator = HLSJSBandwidthEstimator()
    /// The default estimate was raised to the first listed variant's BANDWIDTH (once, at the first selection).
    private var sawLadder = false
    /// hls.js `lastLoadedFragLevel`.
    var lastLoadedVariant: Int?
    /// hls.js `loadLevel`: the level of the last selection.
    var loadVariant: Int?
    /// hls.js `firstSelection`: the start level, kept until the first segment arrives.
    private var firstSelection: Int?
    /// hls.js `_nextAutoLevel` set by an emergency: the level of the next segments until one of it arrives.
    var forcedVariant: Int?
    /// Levels whose media playlist hls.js would have loaded (those selected once).
    var knownPlaylists: Set<Int> = []
    /// hls.js `fragCurrent.duration`: the segment loading or last loaded (0 before any).
    private var currentSegmentSeconds = 0.0
    /// The load whose check has concluded (hls.js clears its timer), and an abandonment scheduled for it.
    var concludedLoad: LoadKey?
    var scheduledAbort: (load: LoadKey, atElapsedSeconds: Double, variant: Int)?

    struct LoadKey: Hashable {
        var variant: Int
        var segment: Int
    }

    public init() {}

    public var readsThroughputEstimate: Bool { false }
    public var loadCheckIntervalSeconds: Double? { Self.checkIntervalSeconds }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        raiseDefaultEstimate(input)
        var level: Int
        var reason: String
        if let forced = forcedVariant {
            level = forced
            reason = "hls.js emergency level"
        } else if estimator.canEstimate, lastLoadedVariant != nil {
            (level, reason) = nextLevel(input, allowed: allowed)
        } else {
            (level, reason) = firstAutoLevel(input, allowed: allowed)
        }
        level = min(max(level, allowed.lowerBound), allowed.upperBound)
        knownPlaylists.insert(level)
        loadVariant = level
        guard input.explains else { return Selection(variantIndex: level, reason: "hls.js") }
        return Selection(variantIndex: level, reason: "\(reason), bwe \(kbps(estimator.estimateBitsPerSecond)) kbps")
    }

    public mutating func segmentLoaded(_ load: LoadProgress) {
        // FRAG_LOADED samples the time to first byte, then FRAG_BUFFERED the rate with the new TTFB estimate.
        let firstByte = load.timeToFirstByteSeconds ?? 0
        estimator.sampleTimeToFirstByte(seconds: firstByte)
        estimator.sample(
            seconds: load.elapsedSeconds - min(firstByte, estimator.timeToFirstByteSeconds), bytes: load.bytesLoaded)
        if forcedVariant == load.variantIndex { forcedVariant = nil }
        firstSelection = nil
        lastLoadedVariant = load.variantIndex
        currentSegmentSeconds = load.segmentDurationSeconds
        concludedLoad = nil
        scheduledAbort = nil
    }

    /// At the manifest, hls.js raises its default estimate to the first listed variant's BANDWIDTH, at most
    /// `abrEwmaDefaultEstimateMax`, when nothing was measured yet.
    private mutating func raiseDefaultEstimate(_ input: SelectionInput) {
        guard !sawLadder else { return }
        sawLadder = true
        guard input.variants.indices.contains(input.firstListedVariantIndex) else { return }
        let first = Double(input.variants[input.firstListedVariantIndex].bandwidthBitsPerSecond)
        let start = min(first, HLSJSBandwidthEstimator.defaultEstimateMaxBitsPerSecond)
        if start > estimator.estimateBitsPerSecond, !estimator.canEstimate {
            estimator.reset(defaultEstimateBitsPerSecond: start)
        }
    }

    /// hls.js `firstAutoLevel`: the best level for the estimate with no buffer and `maxStarvationDelay` to
    /// spare, at full factors; else the first listed.
    private mutating func firstAutoLevel(_ input: SelectionInput, allowed: ClosedRange<Int>) -> (Int, String) {
        if let level = bestLevel(
            input, bitsPerSecond: estimator.estimateBitsPerSecond, allowed: allowed, starvationSeconds: 0,
            maxStarvationSeconds: Self.maxStarvationDelaySeconds, downFactor: 1, upFactor: 1)
        {
            return (level, "hls.js start")
        }
        return (input.firstListedVariantIndex, "hls.js first listed")
    }

    /// hls.js `getNextABRAutoLevel`.
    private mutating func nextLevel(_ input: SelectionInput, allowed: ClosedRange<Int>) -> (Int, String) {
        let estimate = estimator.estimateBitsPerSecond
        let starvation = input.bufferSeconds
        if starvation > 0,
            let level = bestLevel(
                input, bitsPerSecond: estimate, allowed: allowed, starvationSeconds: starvation,
                maxStarvationSeconds: 0, downFactor: Self.bandwidthFactor, upFactor: Self.bandwidthUpFactor)
        {
            return (level, "hls.js")
        }
        let maxStarvation =
            currentSegmentSeconds > 0
            ? min(currentSegmentSeconds, Self.maxStarvationDelaySeconds) : Self.maxStarvationDelaySeconds
        if let level = bestLevel(
            input, bitsPerSecond: estimate, allowed: allowed, starvationSeconds: starvation,
            maxStarvationSeconds: maxStarvation, downFactor: Self.bandwidthFactor, upFactor: Self.bandwidthUpFactor)
        {
            return (level, "hls.js, stall expected")
        }
        let current = loadVariant ?? input.firstListedVariantIndex
        if input.variants[allowed.lowerBound].bandwidthBitsPerSecond < input.variants[current].bandwidthBitsPerSecond {
            return (allowed.lowerBound, "hls.js, no level fits")
        }
        return (current, "hls.js, no level fits")
    }

    /// hls.js `findBestLevel`: from the top of `allowed` down, the first level whose bitrate fits under the
    /// adjusted estimate and whose segment would arrive within starvation + max starvation seconds; nil when
    /// none does. The first selection is remembered until a segment arrives.
    mutating func bestLevel(
        _ input: SelectionInput, bitsPerSecond: Double, allowed: ClosedRange<Int>, starvationSeconds: Double,
        maxStarvationSeconds: Double, downFactor: Double, upFactor: Double
    ) -> Int? {
        if input.variants.count == 1 { return 0 }
        let maxFetchSeconds = starvationSeconds + maxStarvationSeconds
        let isFirstSelection = lastLoadedVariant == nil || loadVariant == nil
        let base = lastLoadedVariant ?? max(input.firstListedVariantIndex, allowed.lowerBound)
        var bandwidth = bitsPerSecond
        if isFirstSelection {
            if let firstSelection { return firstSelection }
            // The start tier's lowest BANDWIDTH is the least the estimate counts for.
            let lowest = allowed.map { input.variants[$0].bandwidthBitsPerSecond }.min() ?? 0
            bandwidth = max(bandwidth, Double(lowest))
        }
        let ttfb = estimator.timeToFirstByteSeconds
        let fragment = currentSegmentSeconds
        for level in allowed.reversed() {
            let variant = input.variants[level]
            let known = knownPlaylists.contains(level)
            let averageDuration = known ? input.segmentDurationSeconds : fragment
            let adjusted = (level > base ? upFactor : downFactor) * bandwidth
            let useAverage = fragment > 0 && starvationSeconds >= fragment * 2 && maxStarvationSeconds == 0
            let bitrate = Double(useAverage ? variant.nominalBitsPerSecond : variant.bandwidthBitsPerSecond)
            let fetch = ttfb + bitrate * averageDuration / adjusted + (known ? 0 : ttfb + Self.levelLoadSeconds)
            if adjusted >= bitrate, fetch <= ttfb || !fetch.isFinite || fetch < maxFetchSeconds {
                if isFirstSelection { firstSelection = level }
                return level
            }
        }
        return nil
    }
}
