import JSON
import Playback

/// The one effect runner of the simulator: drives a `PlaybackMachine` in virtual time over the network model
/// of `NetworkClock`, answering its playlist requests from the manifest (instantly: the model counts segment
/// downloads only), its segment requests with the trace's timing, and delivering viewer actions at their time.
///
/// The machine is configured so the session follows the same model as `SessionSimulator`: start-up and resume
/// thresholds of one segment (or `--startup`), and the next request only once a whole segment fits under the
/// buffer cap (load limit = cap − segment). With no actions both give the same numbers (tested).
///
/// With the `hlsjs` rule the machine buffers as hls.js does instead (`HLSJSPlayerProfile`), time also passes in
/// steps of the profile's tick while nothing loads, and a load in flight reports its progress (bytes so far on
/// the trace) as often as the rule asks, so that the rule can abandon it. When the stream has an audio rendition,
/// each segment load shares the link with the load of one audio segment (the same one, or the next: hls.js's audio
/// controller runs at most one segment ahead of the video), both started together and sharing the bandwidth
/// equally until the smaller one ends; the rule sees only the video bytes, as hls.js keeps audio out of its
/// estimate.
public enum PlaybackRunner {
    public static func run(
        manifest: StreamManifest, trace: NetworkTrace, configuration: SessionConfiguration, schedule: [ViewerAction]
    ) -> SessionResult {
        var runner = Runner(manifest: manifest, trace: trace, configuration: configuration, schedule: schedule)
        runner.run()
        return runner.result()
    }
}

struct Runner {
    let manifest: StreamManifest
    let configuration: SessionConfiguration
    let segmentSeconds: Double
    let capSeconds: Double
    let masterURL = "sim://stream/master.m3u8"
    var machine: PlaybackMachine
    var clock: NetworkClock
    var now = 0.0
    var actions: [ViewerAction]
    var nextAction = 0

    struct InFlight {
        var id: PlaybackMachine.RequestID
        var request: PlaybackMachine.SegmentRequest
        var segmentIndex: Int
        var startedAt: Double
        var arrivesAt: Double
        var clockAfter: NetworkClock
        var download: NetworkClock.Download
        var bytes: Int
        /// Bits of the audio segment loaded alongside (0 when none).
        var audioBits: Double
        var reason: String
        /// The network when the request was sent, to measure its progress.
        var clockAtStart: NetworkClock
        /// When to report progress next, and how often (`reportLoadProgress`).
        var progressAt: Double?
        var progressEvery = 0.0

        /// How far the load has come at `time`: nothing before the first byte, then the bits of the trace.
        func progress(at time: Double) -> PlaybackMachine.SegmentProgress {
            let elapsed = time - startedAt
            let latency = download.latencyMilliseconds
            guard elapsed * 1000 >= latency else {
                return PlaybackMachine.SegmentProgress(
                    bytesLoaded: 0, elapsedSeconds: elapsed, timeToFirstByteSeconds: nil)
            }
            var clock = clockAtStart
            _ = clock.waitLatency()
            let video = Double(bytes) * 8
            let sent = clock.transfer(
                milliseconds: elapsed * 1000 - latency, upToBits: Runner.linkBits(video: video, audio: audioBits))
            let videoBits =
                sent <= 2 * min(audioBits, video) ? sent / 2 : (audioBits <= video ? sent - audioBits : video)
            return PlaybackMachine.SegmentProgress(
                bytesLoaded: min(Int(videoBits / 8), bytes), elapsedSeconds: elapsed,
                timeToFirstByteSeconds: latency / 1000)
        }
    }
    var inFlight: InFlight?
    /// hls.js's stream-controller tick while nothing loads (the `hlsjs` profile), nil otherwise.
    let idleTickSeconds: Double?
    /// The audio rendition's segment sizes, bits, in an `hlsjs` session (empty otherwise), and the next to load.
    let audioSegmentBits: [Double]
    var nextAudioSegment = 0

    /// Bits over the link until a video segment of `video` bits has arrived while an audio one of `audio` bits
    /// loads beside it, the two sharing the bandwidth equally until the smaller ends.
    static func linkBits(video: Double, audio: Double) -> Double {
        audio <= video ? video + audio : 2 * video
    }
    var timers: [(id: PlaybackMachine.RequestID, at: Double)] = []
    var immediate: [PlaybackMachine.Event] = []
    var lastReason = "start"

    // Records.
    var segments: [SegmentLogEntry] = []
    var events: [SessionEvent] = []
    var timeline: [(time: Double, level: Double)] = []
    /// Downloaded media waiting to be played: (start, end, level), in media order.
    var queue: [(start: Double, end: Double, level: Int)] = []
    var played: [Int] = []
    var rebufferSeconds = 0.0
    var rebufferEvents = 0
    var openStall: Int?
    var startupSeconds: Double?
    var ended = false
    var failed = false
    /// The segment in flight when the session bound was reached, if it was.
    var unfinishedSegment: Int?
    var abandonedLoads = 0

    init(manifest: StreamManifest, trace: NetworkTrace, configuration: SessionConfiguration, schedule: [ViewerAction]) {
        self.manifest = manifest
        self.configuration = configuration
        segmentSeconds = manifest.segmentDurationSeconds
        var playback = PlaybackConfiguration()
        var selectorConfiguration = configuration.selector
        if configuration.rule == .hlsjs {
            let profile = configuration.hlsjs
            capSeconds = max(profile.maxBufferLengthSeconds, segmentSeconds)
            playback.maxBufferSeconds = profile.maxBufferLengthSeconds
            playback.maxBufferBytes = profile.maxBufferSizeBytes
            playback.maxMaxBufferSeconds = profile.maxMaxBufferLengthSeconds
            idleTickSeconds = profile.tickSeconds
            audioSegmentBits = manifest.audioSegmentSizesBits
        } else {
            audioSegmentBits = []
            capSeconds = max(configuration.bufferCapSeconds, segmentSeconds)
            playback.maxBufferSeconds = capSeconds - segmentSeconds + 1e-9
            selectorConfiguration.plannedBufferCapSeconds = capSeconds
            idleTickSeconds = nil
        }
        let startup = min(max(configuration.startupThresholdSeconds ?? 0, segmentSeconds), capSeconds)
        playback.startupBufferSeconds = startup
        playback.resumeBufferSeconds = segmentSeconds
        playback.lookAheadSegments = configuration.lookaheadSegments
        machine = PlaybackMachine(
            configuration: playback,
            selector: QualitySelector(rule: configuration.rule, configuration: selectorConfiguration),
            estimator: BandwidthEstimator(configuration: configuration.estimator), viewport: configuration.viewport)
        clock = NetworkClock(trace: trace)
        actions = schedule
    }

    /// The ladder with every variant's timeline (segment sizes included), as a player that has read all media
    /// playlists knows it; the selector then sees the upcoming sizes of every variant.
    var stream: StreamDescription {
        var stream = StreamDescription(
            variants: manifest.variants.enumerated().map { level, info in
                var info = info
                if configuration.rule == .hlsjs, level < manifest.averageBitratesKilobitsPerSecond.count,
                    let average = manifest.averageBitratesKilobitsPerSecond[level]
                {
                    info.averageBandwidthBitsPerSecond = Int((average * 1000).rounded())
                }
                return StreamDescription.Variant(
                    info: info, uri: "v\(level)/index.m3u8", timeline: timeline(level: level))
            })
        stream.firstListedIndex = manifest.firstListedLevel
        return stream
    }

    func timeline(level: Int) -> MediaTimeline {
        MediaTimeline(
            durations: Array(repeating: segmentSeconds, count: manifest.segmentCount),
            targetDurationSeconds: segmentSeconds, hasEndList: true,
            sizesBytes: manifest.segmentSizesBits.map { Int(($0[level] / 8).rounded()) }, uriPrefix: "v\(level)/seg")
    }

    var isPlaying: Bool { machine.state.phase == .playing }
    var bufferSeconds: Double { machine.bufferSeconds }

    mutating func run() {
        perform(machine.handle(.load(url: masterURL)))
        var guardSteps = 0
        while !ended && !failed && guardSteps < 10_000_000 {
            guardSteps += 1
            if !immediate.isEmpty {
                let event = immediate.removeFirst()
                perform(machine.handle(event))
                continue
            }
            // The next moment something happens.
            var next = Double.infinity
            if let inFlight {
                next = min(next, inFlight.arrivesAt)
                if let progressAt = inFlight.progressAt { next = min(next, progressAt) }
            }
            if nextAction < actions.count { next = min(next, max(actions[nextAction].timeSeconds, now)) }
            for timer in timers { next = min(next, timer.at) }
            if isPlaying {
                // The buffer empties (a stall or the end), or, with nothing in flight, drops to the load limit.
                // (At least a nanosecond ahead, so rounding can never leave a sliver of buffer that no tick
                // can drain.)
                next = min(next, now + max(bufferSeconds, 1e-9))
                if inFlight == nil, let tick = idleTickSeconds {
                    next = min(next, now + tick)
                } else if inFlight == nil {
                    let limit = capSeconds - segmentSeconds
                    if bufferSeconds > limit { next = min(next, now + max(bufferSeconds - limit, 1e-9)) }
                }
            }
            guard next.isFinite else { break }  // Nothing can happen any more (e.g. paused with a full buffer).
            if next * 1000 >= clock.horizonMilliseconds {
                // The session bound: a download (or the wait for an action) outlasts it.
                unfinishedSegment = inFlight?.segmentIndex ?? played.count + queue.count
                break
            }
            if next > now {
                let elapsed = next - now
                now = next
                perform(machine.handle(.tick(elapsedSeconds: elapsed)))
                recordBuffer()
            }
            if let flight = inFlight, flight.arrivesAt <= now {
                deliver(flight)
            } else if let flight = inFlight, let progressAt = flight.progressAt, progressAt <= now {
                inFlight?.progressAt = progressAt + flight.progressEvery
                perform(machine.handle(.segmentProgress(flight.id, flight.progress(at: now))))
            } else if nextAction < actions.count, actions[nextAction].timeSeconds <= now {
                let action = actions[nextAction]
                nextAction += 1
                apply(action)
            } else if let index = timers.firstIndex(where: { $0.at <= now }) {
                let timer = timers.remove(at: index)
                perform(machine.handle(.timerFired(timer.id)))
            }
        }
        consumePlayed(untilEnd: true)
    }

    mutating func deliver(_ flight: InFlight) {
        inFlight = nil
        clock = flight.clockAfter
        let download = PlaybackMachine.SegmentDownload(
            bytes: flight.bytes, downloadSeconds: flight.download.totalMilliseconds / 1000,
            timeToFirstByteSeconds: flight.download.latencyMilliseconds / 1000)
        perform(machine.handle(.segmentLoaded(flight.id, download)))
        queue.append((flight.request.startSeconds, flight.request.endSeconds, flight.request.variantIndex))
        let transfer = max(flight.download.transferMilliseconds, 1e-9)
        segments.append(
            SegmentLogEntry(
                index: flight.segmentIndex, requestTimeSeconds: flight.startedAt, idleBeforeSeconds: 0,
                variant: flight.request.variantIndex, bytes: flight.bytes,
                downloadSeconds: flight.download.totalMilliseconds / 1000,
                latencySeconds: flight.download.latencyMilliseconds / 1000,
                throughputKilobitsPerSecond: Double(flight.bytes) * 8 / transfer, bufferAfterSeconds: bufferSeconds,
                stallSeconds: stallDuring(from: flight.startedAt, to: now), reason: flight.reason))
        recordBuffer()
    }

    /// Stall seconds that overlap [from, to].
    func stallDuring(from: Double, to: Double) -> Double {
        events.filter { $0.kind == .stall }.reduce(0) { sum, e in
            let end = e.time + (e.durationSeconds ?? (now - e.time))
            return sum + max(0, min(end, to) - max(e.time, from))
        }
    }

    mutating func apply(_ action: ViewerAction) {
        consumePlayed(untilEnd: false)
        let before = machine.positionSeconds ?? 0
        let playingBefore = machine.preferences.wantsToPlay
        let slot = events.count  // The action is logged before what it causes (e.g. a flush stall).
        let kind: SessionEvent.Kind
        let detail: String
        switch action.kind {
        case .rotate(let orientation, let viewport):
            kind = .rotate
            detail = orientation.rawValue
            perform(machine.handle(.orientationChanged(ViewerAction.playerArea(viewport, orientation))))
        case .select(let choice, let name):
            kind = .select
            detail = name
            perform(machine.handle(.qualityRequested(choice)))
            if case .fixed = choice { dropFlushed() }
        case .seek(let target):
            kind = .seek
            detail = "to \(fixedNumber(target, digits: 2)) s"
            perform(machine.handle(.seek(toSeconds: target)))
            dropFlushed()
            queue.removeAll { $0.end <= (machine.positionSeconds ?? 0) + 1e-6 }
        case .subtitles(let language):
            kind = .subtitles
            detail = language ?? "off"
            perform(machine.handle(.subtitleSelected(language.map { .language($0) } ?? .off)))
        }
        if let open = openStall, open >= slot { openStall = open + 1 }
        events.insert(
            SessionEvent(
                time: now, kind: kind, detail: detail, positionBeforeSeconds: before,
                positionAfterSeconds: machine.positionSeconds ?? 0, playingBefore: playingBefore,
                playingAfter: machine.preferences.wantsToPlay), at: slot)
        recordBuffer()
    }

    /// Forgets downloaded media the machine no longer holds (a flush). A segment the playhead is inside is
    /// forgotten too: the machine loads it again from there, and that load is what finishes playing it, so each
    /// segment is counted once.
    mutating func dropFlushed() {
        guard let session = machine.state.session else { return }
        queue.removeAll { $0.end > session.bufferedUntilSeconds + 1e-6 }
    }

    /// Moves media the playhead has passed from the queue to the played list.
    mutating func consumePlayed(untilEnd: Bool) {
        let position = untilEnd ? Double.infinity : (machine.positionSeconds ?? 0)
        while let first = queue.first, first.end <= position + 1e-6 {
            played.append(first.level)
            queue.removeFirst()
        }
    }

    mutating func recordBuffer() {
        timeline.append((now, bufferSeconds))
    }

    mutating func perform(_ effects: [PlaybackMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .loadPlaylist(let request):
                if let level = request.variantIndex {
                    immediate.append(.playlistLoaded(request.id, .media(timeline(level: level))))
                } else {
                    immediate.append(.playlistLoaded(request.id, .multivariant(stream)))
                }
            case .loadSegment(let request):
                consumePlayed(untilEnd: false)
                let segmentIndex = Int((request.startSeconds / segmentSeconds).rounded())
                let bits = manifest.segmentSizesBits[min(segmentIndex, manifest.segmentCount - 1)][request.variantIndex]
                var after = clock
                after.idle(milliseconds: now * 1000 - after.nowMilliseconds)
                let audioBits = nextAudioBits(forSegment: segmentIndex)
                let download = after.download(bits: Runner.linkBits(video: bits, audio: audioBits))
                let reason = lastRequestedVariant == request.variantIndex ? "kept: \(lastReason)" : lastReason
                lastRequestedVariant = request.variantIndex
                var start = clock
                start.idle(milliseconds: now * 1000 - start.nowMilliseconds)
                inFlight = InFlight(
                    id: request.id, request: request, segmentIndex: segmentIndex, startedAt: now,
                    arrivesAt: now + download.totalMilliseconds / 1000, clockAfter: after, download: download,
                    bytes: Int((bits / 8).rounded()), audioBits: audioBits, reason: reason, clockAtStart: start)
            case .reportLoadProgress(let id, let every):
                if inFlight?.id == id, every > 0 {
                    inFlight?.progressAt = now + every
                    inFlight?.progressEvery = every
                }
            case .cancelLoad(let id):
                if inFlight?.id == id { inFlight = nil }
                timers.removeAll { $0.id == id }
            case .scheduleReload(let timer), .scheduleRetry(let timer):
                timers.append((timer.id, now + timer.afterSeconds))
            case .presentFullScreen, .exitFullScreen:
                break
            case .report(let metric):
                record(metric)
            }
        }
    }

    var lastRequestedVariant: Int?

    /// The audio segment loaded alongside video segment `segment`: the next one in order, if it is at most one
    /// ahead (after a seek, the one at the new place); 0 bits when none is due.
    mutating func nextAudioBits(forSegment segment: Int) -> Double {
        if nextAudioSegment < segment || nextAudioSegment > segment + 1 { nextAudioSegment = segment }
        guard nextAudioSegment < audioSegmentBits.count, nextAudioSegment <= segment + 1 else { return 0 }
        nextAudioSegment += 1
        return audioSegmentBits[nextAudioSegment - 1]
    }

    mutating func record(_ metric: PlaybackMetric) {
        switch metric {
        case .playbackStarted:
            if startupSeconds == nil { startupSeconds = now }
        case .variantSwitched(_, _, _, _, let reason):
            lastReason = reason
        case .stallStarted(let at, let cause):
            let position = at
            openStall = events.count
            events.append(
                SessionEvent(
                    time: now, kind: .stall, detail: cause.rawValue, positionBeforeSeconds: position,
                    positionAfterSeconds: position, playingBefore: true, playingAfter: true))
        case .stallEnded(_, let duration):
            if let index = openStall, duration <= 1e-9 {
                // The segment arrived the instant the buffer ran out: no stall (as in SessionSimulator).
                events.remove(at: index)
                openStall = nil
            } else if let index = openStall {
                events[index].durationSeconds = duration
                events[index].time = now - duration
                events[index].detail += " \(fixedNumber(duration, digits: 2)) s"
                rebufferSeconds += duration
                rebufferEvents += 1
                openStall = nil
            }
        case .ended:
            ended = true
        case .failed:
            failed = true
        case .segmentAbandoned:
            abandonedLoads += 1
        case .seekCompleted, .segmentRetried, .playlistRetried, .steppedDown, .positionResynced:
            break
        }
    }

    func result() -> SessionResult {
        let startup = startupSeconds ?? now
        let summary = QoESummary(
            playedLevels: played, bitratesKilobitsPerSecond: manifest.bitratesKilobitsPerSecond,
            segmentDurationSeconds: segmentSeconds, rebufferSeconds: rebufferSeconds, rebufferEvents: rebufferEvents,
            startupSeconds: startup)
        var result = SessionResult(
            traceName: clock.trace.name, rule: configuration.rule.rawValue, summary: summary, playedLevels: played,
            segments: segments, events: events, bufferTimeline: timeline, startupSeconds: startup, endSeconds: now)
        result.bufferCapSeconds = capSeconds
        result.abandonedLoads = abandonedLoads
        if let unfinishedSegment {
            result.unfinished = .sessionTooLong(
                trace: clock.trace.name, segment: min(unfinishedSegment, manifest.segmentCount - 1),
                segmentCount: manifest.segmentCount)
        }
        return result
    }
}
