import JSON
import Playback

/// The fast inner loop: one session, segment by segment, over the model of `NetworkClock` with the same
/// `QualitySelector` and `BandwidthEstimator` a player uses. No viewer actions (those go through
/// `PlaybackRunner`, which drives the `PlaybackMachine`; tests check both give the same numbers). Not for the
/// `hlsjs` rule, which needs the machine (load progress, hls.js's buffer): `SimulatedSession` picks the runner.
///
/// The model (Sabre's, so numbers compare with published simulators):
/// 1. One request at a time. Before a request, if buffer + one segment > cap, idle until it fits.
/// 2. A request takes the trace latency, then the segment's bits at the trace bandwidth (`NetworkClock`).
/// 3. While playing, the buffer drains in real time during idle and download; if a download outlasts the
///    buffer, the difference is a stall (one event); playback resumes when the segment arrives.
/// 4. Playback starts when the start-up threshold (default: the first segment) is buffered; waiting for it
///    is start-up delay, not rebuffering.
/// 5. A download still running after `SimulationLimits.maximumSessionSeconds` of virtual time ends the session
///    unfinished (`SessionResult.unfinished`).
public enum SessionSimulator {
    public static func run(
        manifest: StreamManifest, trace: NetworkTrace, configuration: SessionConfiguration, keepLog: Bool = true
    ) -> SessionResult {
        var loop = SegmentLoop(manifest: manifest, trace: trace, configuration: configuration, keepLog: keepLog)
        while loop.nextSegment < manifest.segmentCount && loop.unfinishedSegment == nil { loop.step() }
        return loop.finish()
    }
}

/// The state of a session between segment requests (one step = idle if full, select, download, buffer).
struct SegmentLoop {
    let manifest: StreamManifest
    let configuration: SessionConfiguration
    let keepLog: Bool
    let segmentMilliseconds: Double
    let capMilliseconds: Double
    let startupMilliseconds: Double
    var clock: NetworkClock
    var selector: QualitySelector
    var bufferMilliseconds = 0.0
    var playing = false
    var startupAt: Double?
    var rebufferMilliseconds = 0.0
    var rebufferEvents = 0
    var nextSegment = 0
    var previousLevel: Int?
    var playedLevels: [Int] = []
    var segments: [SegmentLogEntry] = []
    var events: [SessionEvent] = []
    var timeline: [(time: Double, level: Double)] = []
    /// The segment whose download the session bound cut, if any.
    var unfinishedSegment: Int?
    /// When set, the levels to fetch instead of asking the selector (`replay`).
    var forcedLevels: [Int]?
    /// Upcoming sizes in bytes, per segment and level (what a player would know from the playlist).
    let bytesTable: [[Int]]
    /// What the selector is told, kept from one step to the next and updated in place: the estimator records
    /// into `input.estimator`, and `input.upcomingSegmentBytes` holds the rows of `bytesTable` of the next
    /// segment and after (up to `lookaheadSegments`), slid by one row per step. A decision copies neither.
    var input: SelectionInput

    init(manifest: StreamManifest, trace: NetworkTrace, configuration: SessionConfiguration, keepLog: Bool) {
        self.manifest = manifest
        self.configuration = configuration
        self.keepLog = keepLog
        segmentMilliseconds = manifest.segmentDurationMilliseconds
        capMilliseconds = max(configuration.bufferCapSeconds * 1000, segmentMilliseconds)
        startupMilliseconds = min(
            max((configuration.startupThresholdSeconds ?? 0) * 1000, segmentMilliseconds), capMilliseconds)
        clock = NetworkClock(trace: trace)
        selector = QualitySelector(rule: configuration.rule, configuration: configuration.selector)
        // The EWMAs only when the rule reads them (`filterz` and `mpc` do not): two `pow` a sample.
        var estimatorConfiguration = configuration.estimator
        estimatorConfiguration.throughputAverages =
            estimatorConfiguration.throughputAverages && selector.readsThroughputEstimate
        bytesTable = manifest.segmentSizesBytes
        input = SelectionInput(
            variants: manifest.variants, segmentIndex: 0, segmentDurationSeconds: segmentMilliseconds / 1000,
            upcomingSegmentBytes: Array(bytesTable.prefix(max(configuration.lookaheadSegments, 0))),
            estimator: BandwidthEstimator(configuration: estimatorConfiguration),
            bufferSeconds: 0, maxBufferSeconds: capMilliseconds / 1000, viewport: configuration.viewport,
            userChoice: .auto, isStartup: true)
        input.explains = keepLog
        playedLevels.reserveCapacity(manifest.segmentCount)
    }

    var positionSeconds: Double {
        (Double(playedLevels.count) * segmentMilliseconds - bufferMilliseconds) / 1000
    }

    mutating func step() {
        let k = nextSegment
        var idle = 0.0
        if playing {
            let full = bufferMilliseconds + segmentMilliseconds - capMilliseconds
            if full > 0 {
                idle = full
                bufferMilliseconds -= full
                clock.idle(milliseconds: full)
                if keepLog { timeline.append((clock.nowMilliseconds / 1000, bufferMilliseconds / 1000)) }
            }
        }
        let selection = forcedLevels.map { Selection(variantIndex: $0[k], reason: "replay") } ?? select(segment: k)
        let level = selection.variantIndex
        let requestAt = clock.nowMilliseconds
        let bits = manifest.segmentSizesBits[k][level]
        let download = clock.download(bits: bits)
        if clock.isPastHorizon {
            unfinishedSegment = k
            return
        }
        let time = download.totalMilliseconds
        var stall = 0.0
        if playing {
            if time > bufferMilliseconds {
                stall = time - bufferMilliseconds
                rebufferMilliseconds += stall
                rebufferEvents += 1
                if keepLog {
                    let position = (Double(playedLevels.count) * segmentMilliseconds) / 1000
                    events.append(
                        SessionEvent(
                            time: (requestAt + bufferMilliseconds) / 1000, kind: .stall,
                            detail: fixedNumber(stall / 1000, digits: 2) + " s",
                            positionBeforeSeconds: position,
                            positionAfterSeconds: position, playingBefore: true, playingAfter: true,
                            durationSeconds: stall / 1000))
                }
                bufferMilliseconds = 0
            } else {
                bufferMilliseconds -= time
            }
        }
        if keepLog { timeline.append((clock.nowMilliseconds / 1000, bufferMilliseconds / 1000)) }
        bufferMilliseconds += segmentMilliseconds
        playedLevels.append(level)
        if !playing && bufferMilliseconds >= startupMilliseconds {
            playing = true
            startupAt = clock.nowMilliseconds
        }
        let transfer = max(download.transferMilliseconds, 1e-9)
        // Exactly what a player reports (and what `PlaybackMachine` passes on), so both paths agree.
        input.estimator.record(
            bytes: bytesTable[k][level], durationSeconds: time / 1000,
            timeToFirstByteSeconds: download.latencyMilliseconds / 1000)
        if keepLog {
            timeline.append((clock.nowMilliseconds / 1000, bufferMilliseconds / 1000))
            segments.append(
                SegmentLogEntry(
                    index: k, requestTimeSeconds: requestAt / 1000, idleBeforeSeconds: idle / 1000, variant: level,
                    bytes: bytesTable[k][level], downloadSeconds: time / 1000,
                    latencySeconds: download.latencyMilliseconds / 1000,
                    throughputKilobitsPerSecond: bits / transfer, bufferAfterSeconds: bufferMilliseconds / 1000,
                    stallSeconds: stall / 1000, reason: selection.reason))
        }
        previousLevel = level
        nextSegment += 1
        let entering = k + configuration.lookaheadSegments
        slideWindow(entering: configuration.lookaheadSegments > 0 && entering < bytesTable.count ? entering : nil)
    }

    /// Drops the window's first row and appends row `entering` of `bytesTable` (if any). The rows are rotated in
    /// place (moved, not copied: no reference counting per row), then the old first row, now last, is replaced or
    /// removed; `removeFirst` would go through a generic range replacement.
    mutating func slideWindow(entering: Int?) {
        guard !input.upcomingSegmentBytes.isEmpty else {
            if let entering { input.upcomingSegmentBytes.append(bytesTable[entering]) }
            return
        }
        input.upcomingSegmentBytes.withUnsafeMutableBufferPointer { rows in
            guard let base = rows.baseAddress, rows.count > 1 else { return }
            let first = base.move()
            base.moveInitialize(from: base + 1, count: rows.count - 1)
            (base + rows.count - 1).initialize(to: first)
        }
        if let entering {
            input.upcomingSegmentBytes[input.upcomingSegmentBytes.count - 1] = bytesTable[entering]
        } else {
            input.upcomingSegmentBytes.removeLast()
        }
    }

    /// Asks the selector for segment `k`, telling it the state of the session in `input`.
    mutating func select(segment k: Int) -> Selection {
        input.segmentIndex = k
        input.bufferSeconds = bufferMilliseconds / 1000
        input.previousVariantIndex = previousLevel
        input.isStartup = !playing
        return selector.select(input)
    }

    mutating func finish() -> SessionResult {
        if !playing {
            // The whole stream fit under the start-up threshold: playback starts at the end of the downloads.
            playing = true
            startupAt = clock.nowMilliseconds
        }
        let end = clock.nowMilliseconds + bufferMilliseconds
        if keepLog { timeline.append((end / 1000, 0)) }
        let startup = (startupAt ?? 0) / 1000
        let summary = QoESummary(
            playedLevels: playedLevels, bitratesKilobitsPerSecond: manifest.bitratesKilobitsPerSecond,
            segmentDurationSeconds: segmentMilliseconds / 1000, rebufferSeconds: rebufferMilliseconds / 1000,
            rebufferEvents: rebufferEvents, startupSeconds: startup)
        var result = SessionResult(
            traceName: clock.trace.name, rule: configuration.rule.rawValue, summary: summary,
            playedLevels: playedLevels, segments: segments, events: events, bufferTimeline: timeline,
            startupSeconds: startup, endSeconds: end / 1000)
        result.bufferCapSeconds = capMilliseconds / 1000
        if let unfinishedSegment {
            result.unfinished = .sessionTooLong(
                trace: clock.trace.name, segment: unfinishedSegment, segmentCount: manifest.segmentCount)
        }
        return result
    }
}

extension SessionSimulator {
    /// Plays a fixed level sequence through the model (to check an offline plan, or replay a log).
    public static func replay(
        levels: [Int], manifest: StreamManifest, trace: NetworkTrace, bufferCapSeconds: Double,
        startupThresholdSeconds: Double? = nil
    ) -> QoESummary {
        var configuration = SessionConfiguration(
            rule: .throughput, bufferCapSeconds: bufferCapSeconds, startupThresholdSeconds: startupThresholdSeconds)
        configuration.lookaheadSegments = 1
        var loop = SegmentLoop(manifest: manifest, trace: trace, configuration: configuration, keepLog: false)
        loop.forcedLevels = levels
        while loop.nextSegment < manifest.segmentCount && loop.unfinishedSegment == nil { loop.step() }
        return loop.finish().summary
    }
}
