import JSON
import Playback

/// How a live session is played: the player's quality rule and viewport (`SessionConfiguration`), hls.js's live
/// options (`LiveSync.Configuration`) and how long to watch.
public struct LiveSessionConfiguration: Sendable {
    public var session: SessionConfiguration
    public var sync: LiveSync.Configuration
    /// Virtual seconds watched.
    public var durationSeconds: Double
    /// hls.js `maxBufferLength` (default 30 s): no media load while this much is buffered ahead.
    public var maxBufferLength: Double = 30
    /// How often the player looks at its latency: the browser's `timeupdate` period (at most 250 ms), which is
    /// when hls.js sets its playback rate; latency samples are taken on the same beat.
    public var timeupdateSeconds: Double = 0.25

    public init(
        session: SessionConfiguration = SessionConfiguration(), sync: LiveSync.Configuration = .init(),
        durationSeconds: Double = 120
    ) {
        self.session = session
        self.sync = sync
        self.durationSeconds = durationSeconds
    }
}

/// What a live session did, beyond its `SessionResult`: every request, the latency, target and rate over time.
public struct LiveSessionLog: Sendable {
    /// A media request: part `part` of segment `msn` (the whole segment when nil) at `level`, sent at `time`.
    public struct MediaRequest: Sendable, Hashable {
        public var time: Double
        public var msn: Int
        public var part: Int?
        public var level: Int
    }
    /// A playlist request sent at `time`, blocking on (`msn`, `part`) when set, answered at `answeredAt`.
    public struct PlaylistRequest: Sendable, Hashable {
        public var time: Double
        public var msn: Int?
        public var part: Int?
        public var answeredAt: Double
        /// What the answer listed: the part after its last (the preload hint) and its end, media seconds.
        public var answerNextPart: Int
        public var answerSegmentInProgress: Int
    }
    /// One `timeupdate` while playing: the true latency, hls.js's target and the rate it set.
    public struct Sample: Sendable, Hashable {
        public var time: Double
        public var latencySeconds: Double
        public var targetLatencySeconds: Double
        public var rate: Double
    }
    public var media: [MediaRequest] = []
    public var playlists: [PlaylistRequest] = []
    public var samples: [Sample] = []
}

/// A viewer of a live stream in virtual time, following hls.js 1.6's live behaviour over the network model of
/// `NetworkClock`; the origin is `LiveOrigin`. See docs/SIMULATION.md, "Live simulation".
public enum LiveSession {
    public static func run(
        stream: LiveStream, trace: NetworkTrace, configuration: LiveSessionConfiguration
    ) -> (result: SessionResult, log: LiveSessionLog) {
        var player = LivePlayer(stream: stream, trace: trace, configuration: configuration)
        player.run()
        return player.finish()
    }
}

struct LivePlayer {
    let origin: LiveOrigin
    let stream: LiveStream
    let trace: NetworkTrace
    let configuration: LiveSessionConfiguration
    let playlistFacts: LiveSync.Playlist
    /// Parts and blocking reloads: a stream with parts played in `lowLatencyMode`.
    let lowLatency: Bool
    var sync: LiveSync
    var selector: QualitySelector
    var input: SelectionInput
    var clock: NetworkClock
    var now = 0.0

    // The playlist the player knows.
    var playlist: LiveOrigin.Playlist?
    var advancedAt = 0.0
    struct PendingPlaylist {
        var sentAt: Double
        var arrivesAt: Double
        var answer: LiveOrigin.Playlist
    }
    var pendingPlaylist: PendingPlaylist?
    var reloadAt: Double?
    var requestScheduled: Double?

    // Media.
    struct PendingMedia {
        var msn: Int
        var part: Int?
        var level: Int
        var sentAt: Double
        var arrivesAt: Double
        var clockAfter: NetworkClock
        var download: NetworkClock.Download
        var bits: Double
        var reason: String
    }
    var pendingMedia: PendingMedia?
    var startPosition: Double?
    var bufferedUntil: Double?
    var position: Double?
    var playing = false
    var rate = 1.0
    var nextTimeupdate = 0.0
    var segmentLevels: [Int: Int] = [:]
    var previousLevel: Int?

    // Records.
    var log = LiveSessionLog()
    var segments: [SegmentLogEntry] = []
    var events: [SessionEvent] = []
    var bufferTimeline: [(time: Double, level: Double)] = []
    var startupSeconds: Double?
    var stallStartedAt: Double?
    var rebufferSeconds = 0.0
    var rebufferEvents = 0

    init(stream: LiveStream, trace: NetworkTrace, configuration: LiveSessionConfiguration) {
        self.stream = stream
        self.trace = trace
        self.configuration = configuration
        origin = LiveOrigin(stream: stream)
        playlistFacts = stream.syncPlaylist
        lowLatency = stream.partSeconds != nil && configuration.sync.lowLatencyMode
        sync = LiveSync(configuration: configuration.sync)
        let session = configuration.session
        selector = QualitySelector(rule: session.rule, configuration: session.selector)
        input = SelectionInput(
            variants: stream.manifest.variants, segmentIndex: 0, segmentDurationSeconds: stream.segmentSeconds,
            estimator: BandwidthEstimator(configuration: session.estimator), bufferSeconds: 0,
            maxBufferSeconds: configuration.maxBufferLength, viewport: session.viewport, isStartup: true)
        input.firstListedVariantIndex = stream.manifest.firstListedLevel
        clock = NetworkClock(trace: trace)
    }

    var bufferAhead: Double {
        guard let position, let bufferedUntil else { return 0 }
        return max(bufferedUntil - position, 0)
    }

    mutating func run() {
        sendPlaylistRequest(msn: nil, part: nil)
        let end = configuration.durationSeconds
        var steps = 0
        while now < end && steps < 10_000_000 {
            steps += 1
            var next = end
            if let pendingPlaylist { next = min(next, pendingPlaylist.arrivesAt) }
            if let pendingMedia { next = min(next, pendingMedia.arrivesAt) }
            if let reloadAt { next = min(next, reloadAt) }
            if playing {
                next = min(next, nextTimeupdate, now + max(bufferAhead / rate, 1e-9))
            }
            advance(to: max(next, now))
            if let media = pendingMedia, media.arrivesAt <= now {
                mediaArrived(media)
            } else if let answer = pendingPlaylist, answer.arrivesAt <= now {
                pendingPlaylist = nil
                playlistArrived(answer)
            } else if let at = reloadAt, at <= now {
                reloadAt = nil
                let next = lowLatency ? playlist?.nextPart : nil
                sendPlaylistRequest(msn: next?.msn, part: next?.part)
            }
            if playing && now >= nextTimeupdate - 1e-12 { timeupdate() }
            loadMediaIfPossible()
        }
        if let stallStartedAt { endStall(startedAt: stallStartedAt) }
    }

    /// Time passes: the position moves at the playback rate while playing; a playhead at the end of the buffer
    /// stalls (hls.js counts the stall and raises its target latency).
    mutating func advance(to time: Double) {
        let elapsed = time - now
        now = time
        guard elapsed > 0, playing, let current = position, let bufferedUntil else { return }
        let moved = min(current + elapsed * rate, bufferedUntil)
        position = moved
        if moved >= bufferedUntil - 1e-9 {
            playing = false
            stallStartedAt = now
            sync.stalled()
            bufferTimeline.append((now, 0))
        }
    }

    mutating func timeupdate() {
        nextTimeupdate = now + configuration.timeupdateSeconds
        guard let position, let playlist else { return }
        let age = now - advancedAt
        let estimated = playlist.endSeconds + age
        rate = sync.playbackRate(
            latencySeconds: estimated - position, forwardBufferSeconds: bufferAhead, playlistAgeSeconds: age,
            playlistFacts)
        log.samples.append(
            LiveSessionLog.Sample(
                time: now, latencySeconds: origin.liveEdge(at: now) - position,
                targetLatencySeconds: sync.targetLatency(playlistFacts), rate: rate))
        bufferTimeline.append((now, bufferAhead))
    }

    // MARK: Playlists

    /// A playlist request: half the trace's latency to the origin, a blocking reload held there until the part
    /// it asks for exists (at most the hold), half the latency back. Playlists take no bandwidth in the model.
    mutating func sendPlaylistRequest(msn: Int?, part: Int?) {
        var probe = NetworkClock(trace: trace, at: now * 1000)
        let oneWay = probe.waitLatency() / 2000
        let atOrigin = now + oneWay
        let answeredAt = msn.map { origin.blockingAnswer(msn: $0, part: part, arrivingAt: atOrigin).at } ?? atOrigin
        let answer = origin.playlist(at: answeredAt)
        pendingPlaylist = PendingPlaylist(sentAt: now, arrivesAt: answeredAt + oneWay, answer: answer)
        requestScheduled = requestScheduled ?? now
        log.playlists.append(
            LiveSessionLog.PlaylistRequest(
                time: now, msn: msn, part: part, answeredAt: answeredAt, answerNextPart: answer.partsInProgress,
                answerSegmentInProgress: answer.segmentInProgress))
    }

    mutating func playlistArrived(_ pending: PendingPlaylist) {
        let answer = pending.answer
        let advanced = playlist.map { answer.endSeconds > $0.endSeconds + 1e-9 } ?? true
        if advanced {
            playlist = answer
            advancedAt = now
        }
        if startPosition == nil {
            let start = sync.syncPosition(
                playlistStartSeconds: answer.startSeconds, playlistEndSeconds: answer.endSeconds,
                playlistAgeSeconds: 0, playlistFacts)
            startPosition = start
            // Loading starts at the independent part holding it: its segment's first.
            let msn = Int((start / stream.segmentSeconds + 1e-9).rounded(.down))
            bufferedUntil = Double(msn) * stream.segmentSeconds
        }
        if advanced && playing { timeupdate() }
        scheduleReload(after: pending, advanced: advanced)
    }

    /// hls.js's reload cadence (`base-playlist-controller.ts`, `computeReloadInterval`): in low-latency mode a
    /// blocking reload for the next part as soon as a playlist that advanced arrives; otherwise one target
    /// duration after the last scheduled request when the playlist changed (the last segment's duration when
    /// shorter and the buffer ends within four target durations of the edge), half of one when it did not.
    mutating func scheduleReload(after pending: PendingPlaylist, advanced: Bool) {
        if lowLatency && advanced {
            let next = pending.answer.nextPart
            requestScheduled = now
            sendPlaylistRequest(msn: next.msn, part: next.part)
            return
        }
        var interval = stream.targetDurationSeconds
        if advanced {
            let distance = pending.answer.endSeconds - (bufferedUntil ?? 0)
            if interval * 4 > distance { interval = min(interval, stream.segmentSeconds) }
        } else {
            interval /= 2
        }
        if lowLatency {
            // A blocking reload that timed out: hls.js waits before asking again.
            let elapsed = now - pending.sentAt
            reloadAt = now + max(interval - 2 * elapsed, interval / 2)
            return
        }
        let scheduled = requestScheduled ?? pending.sentAt
        requestScheduled = scheduled + interval < now ? now : scheduled + interval
        reloadAt = max(requestScheduled ?? now, now)
    }

    // MARK: Media

    /// One load at a time, at the end of the buffer, of media the last playlist lists: the part there when its
    /// segment's parts are listed in low-latency mode, else the whole segment. A level is chosen at each
    /// segment's start.
    mutating func loadMediaIfPossible() {
        guard pendingMedia == nil, let playlist, let loadFrom = bufferedUntil else { return }
        if position != nil && bufferAhead >= configuration.maxBufferLength { return }
        if loadFrom < playlist.startSeconds - 1e-9 {
            resyncToLiveEdge(playlist)
            return loadMediaIfPossible()
        }
        let segment = stream.segmentSeconds
        let msn = Int((loadFrom / segment + 1e-9).rounded(.down))
        var part: Int?
        if lowLatency, msn >= playlist.firstSegmentWithParts, let partSeconds = stream.partSeconds {
            part = Int(((loadFrom - Double(msn) * segment) / partSeconds + 1e-9).rounded(.down))
        }
        guard playlist.lists(msn: msn, part: part) else { return }
        let level: Int
        var reason = "same segment"
        if let known = segmentLevels[msn], (part ?? 0) > 0 {
            level = known
        } else {
            input.segmentIndex = msn
            input.bufferSeconds = bufferAhead
            input.previousVariantIndex = previousLevel
            input.isStartup = startupSeconds == nil
            let selection = selector.select(input)
            level = selection.variantIndex
            reason = selection.reason
            segmentLevels[msn] = level
            previousLevel = level
        }
        let bits = stream.bits(msn: msn, part: part, level: level)
        var after = clock
        after.idle(milliseconds: max(now * 1000 - after.nowMilliseconds, 0))
        let download = after.download(bits: bits)
        pendingMedia = PendingMedia(
            msn: msn, part: part, level: level, sentAt: now, arrivesAt: now + download.totalMilliseconds / 1000,
            clockAfter: after, download: download, bits: bits, reason: reason)
        log.media.append(LiveSessionLog.MediaRequest(time: now, msn: msn, part: part, level: level))
    }

    /// The window slid past the end of the buffer: hls.js (`synchronizeToLiveEdge`) seeks to its live sync
    /// position and loads from there; playback waits for it as in a stall.
    mutating func resyncToLiveEdge(_ playlist: LiveOrigin.Playlist) {
        let target = sync.syncPosition(
            playlistStartSeconds: playlist.startSeconds, playlistEndSeconds: playlist.endSeconds,
            playlistAgeSeconds: now - advancedAt, playlistFacts)
        bufferedUntil = (target / stream.segmentSeconds + 1e-9).rounded(.down) * stream.segmentSeconds
        if position == nil {
            startPosition = target
            return
        }
        position = target
        if playing {
            playing = false
            stallStartedAt = now
        }
    }

    mutating func mediaArrived(_ media: PendingMedia) {
        pendingMedia = nil
        clock = media.clockAfter
        let span = stream.span(msn: media.msn, part: media.part)
        bufferedUntil = span.end
        let bytes = Int((media.bits / 8).rounded())
        input.estimator.record(
            bytes: bytes, durationSeconds: media.download.totalMilliseconds / 1000,
            timeToFirstByteSeconds: media.download.latencyMilliseconds / 1000)
        // A rule with an estimator of its own (hlsjs) samples each load, part or segment, as hls.js does.
        selector.segmentLoaded(
            LoadProgress(
                variantIndex: media.level, segmentIndex: media.msn, segmentDurationSeconds: span.end - span.start,
                bytesLoaded: bytes, elapsedSeconds: media.download.totalMilliseconds / 1000,
                timeToFirstByteSeconds: media.download.latencyMilliseconds / 1000, mediaIsPlaying: playing))
        let transfer = max(media.download.transferMilliseconds, 1e-9)
        segments.append(
            SegmentLogEntry(
                index: media.msn, requestTimeSeconds: media.sentAt, idleBeforeSeconds: 0, variant: media.level,
                bytes: bytes, downloadSeconds: media.download.totalMilliseconds / 1000,
                latencySeconds: media.download.latencyMilliseconds / 1000,
                throughputKilobitsPerSecond: media.bits / transfer, bufferAfterSeconds: bufferAhead,
                stallSeconds: 0, reason: media.reason))
        if position == nil, let startPosition, span.end > startPosition + 1e-9 {
            // The media at the start position is in: playback starts there (hls.js seeks to it).
            position = startPosition
            playing = true
            startupSeconds = now
            nextTimeupdate = now
        } else if let stalledAt = stallStartedAt, bufferAhead > 1e-9 {
            endStall(startedAt: stalledAt)
            playing = true
            nextTimeupdate = now
        }
        bufferTimeline.append((now, bufferAhead))
    }

    mutating func endStall(startedAt: Double) {
        let duration = now - startedAt
        stallStartedAt = nil
        guard duration > 1e-9 else { return }
        rebufferSeconds += duration
        rebufferEvents += 1
        let at = position ?? 0
        events.append(
            SessionEvent(
                time: startedAt, kind: .stall, detail: "\(fixedNumber(duration, digits: 2)) s",
                positionBeforeSeconds: at, positionAfterSeconds: at, playingBefore: true, playingAfter: true,
                durationSeconds: duration))
    }

    func finish() -> (result: SessionResult, log: LiveSessionLog) {
        // A segment counts as played once the playhead is past its end; its level is the one it was loaded at.
        let reached = position ?? 0
        let played = segmentLevels.keys.sorted().filter {
            Double($0 + 1) * stream.segmentSeconds <= reached + 1e-9
        }
        .map { segmentLevels[$0]! }
        let startup = startupSeconds ?? now
        var summary = QoESummary(
            playedLevels: played, bitratesKilobitsPerSecond: stream.manifest.bitratesKilobitsPerSecond,
            segmentDurationSeconds: stream.segmentSeconds, rebufferSeconds: rebufferSeconds,
            rebufferEvents: rebufferEvents, startupSeconds: startup)
        summary.latency = LatencySummary(samples: log.samples.map(\.latencySeconds))
        var result = SessionResult(
            traceName: trace.name, rule: configuration.session.rule.rawValue, summary: summary,
            playedLevels: played, segments: segments, events: events, bufferTimeline: bufferTimeline,
            startupSeconds: startup, endSeconds: now)
        result.bufferCapSeconds = configuration.maxBufferLength
        return (result, log)
    }
}
