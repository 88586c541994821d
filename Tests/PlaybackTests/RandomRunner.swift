import FilterzTestSupport
import Playback

/// A stream the random runner serves: a ladder and, per variant, a VOD timeline or a live window that slides
/// with the runner's clock.
struct TestSource: Sendable {
    var masterURL = Fixtures.masterURL
    var stream: StreamDescription
    /// Per variant (ladder index): the full VOD timeline, or the segment durations a live window cycles through.
    var timelines: [MediaTimeline]
    var isLive: Bool
    /// Served as a single media playlist (no multivariant playlist).
    var isSingleMedia: Bool = false

    /// The answer to a playlist request at wall time `clockSeconds` (live windows slide with it; after
    /// `jumpAfterSeconds` the media sequence jumps by 1000).
    func playlist(for request: PlaybackMachine.PlaylistRequest, clockSeconds: Double) -> PlaybackMachine.LoadedPlaylist
    {
        guard let variant = request.variantIndex else {
            return isSingleMedia ? .media(window(variant: 0, clockSeconds: clockSeconds)) : .multivariant(stream)
        }
        return .media(window(variant: variant, clockSeconds: clockSeconds))
    }

    private func window(variant: Int, clockSeconds: Double) -> MediaTimeline {
        let base = timelines[min(variant, timelines.count - 1)]
        guard isLive, !base.segments.isEmpty else { return base }
        let step = max(base.targetDurationSeconds, 1)
        let jump = clockSeconds > 120 ? 1000 : 0
        let first = Int(clockSeconds / step) + jump
        let count = 6
        var live = MediaTimeline(
            durations: (0..<count).map { base.segments[($0 + first) % base.segments.count].durationSeconds },
            firstMediaSequence: first, targetDurationSeconds: base.targetDurationSeconds, hasEndList: false,
            uriPrefix: "v\(variant)/live")
        var date = 1_800_000_000 + Double(first) * step
        for index in live.segments.indices {
            live.segments[index].programDateTimeSeconds = date
            date += live.segments[index].durationSeconds
        }
        return live
    }
}

/// Plays the part of a runner with random answers and random user actions: it keeps track of the requests and
/// timers in flight and only answers those (plus, now and then, a stale id, which the machine must ignore).
struct RandomRunner {
    var source: TestSource
    var generator: SeededGenerator
    var clockSeconds = 0.0
    var segmentLoads: [PlaybackMachine.SegmentRequest] = []
    var playlistLoads: [PlaybackMachine.PlaylistRequest] = []
    var timers: [PlaybackMachine.RequestID] = []
    /// The delay of each timer in `timers`, by id.
    var timerDelays: [PlaybackMachine.RequestID: Double] = [:]

    init(source: TestSource, seed: UInt64) {
        self.source = source
        generator = SeededGenerator(seed: seed)
    }

    /// Records what the runner must do next.
    mutating func perform(_ effects: [PlaybackMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .loadSegment(let request): segmentLoads.append(request)
            case .loadPlaylist(let request): playlistLoads.append(request)
            case .cancelLoad(let id):
                segmentLoads.removeAll { $0.id == id }
                playlistLoads.removeAll { $0.id == id }
            case .scheduleReload(let timer), .scheduleRetry(let timer):
                timers.append(timer.id)
                timerDelays[timer.id] = timer.afterSeconds
            case .presentFullScreen, .exitFullScreen, .report, .reportLoadProgress: break
            }
        }
    }

    /// The next event: an answer to something in flight, time passing, or a user action.
    mutating func nextEvent(ladderCount: Int, duration: Double) -> PlaybackMachine.Event {
        let roll = Int.random(in: 0..<100, using: &generator)
        switch roll {
        case 0..<22 where !segmentLoads.isEmpty:
            if Int.random(in: 0..<4, using: &generator) == 0 {
                // Progress of the load, which stays in flight (a rule may abandon it: `cancelLoad`).
                let request = segmentLoads[0]
                let bytes = Int(
                    Double(source.stream.variants[request.variantIndex].info.bandwidthBitsPerSecond)
                        * request.durationSeconds / 8)
                let elapsed = Double.random(in: 0...12, using: &generator)
                clockSeconds += 0.1
                return .segmentProgress(
                    request.id,
                    .init(
                        bytesLoaded: Int.random(in: 0...max(bytes, 0), using: &generator), elapsedSeconds: elapsed,
                        timeToFirstByteSeconds: elapsed > 0.05 ? 0.05 : nil))
            }
            let request = segmentLoads.removeFirst()
            if Int.random(in: 0..<10, using: &generator) == 0 {
                return .segmentLoadFailed(request.id, statusCode: [404, 500, nil].randomElement(using: &generator)!)
            }
            let megabits = Double.random(in: 0.3...30, using: &generator)
            let bytes = max(
                1,
                Int(
                    Double(source.stream.variants[request.variantIndex].info.bandwidthBitsPerSecond)
                        * request.durationSeconds / 8))
            let seconds = Double(bytes) * 8 / (megabits * 1_000_000)
            clockSeconds += seconds
            return .segmentLoaded(
                request.id,
                .init(
                    bytes: bytes, downloadSeconds: seconds,
                    timeToFirstByteSeconds: Double.random(in: 0...0.1, using: &generator)))
        case 0..<34 where !playlistLoads.isEmpty:
            let request = playlistLoads.removeFirst()
            if Int.random(in: 0..<12, using: &generator) == 0 {
                return .playlistLoadFailed(request.id, statusCode: [404, 503, nil].randomElement(using: &generator)!)
            }
            return .playlistLoaded(request.id, source.playlist(for: request, clockSeconds: clockSeconds))
        case 0..<42 where !timers.isEmpty:
            return .timerFired(timers.removeFirst())
        case 0..<65:
            let elapsed = [0.1, 0.5, 1, 2, 4, 9].randomElement(using: &generator)!
            clockSeconds += elapsed
            return .tick(elapsedSeconds: elapsed)
        case 65..<70: return .play
        case 70..<74: return .pause
        case 74..<78: return .seek(toSeconds: Double.random(in: -5...(duration + 5), using: &generator))
        case 78..<84:
            return .orientationChanged(Bool.random(using: &generator) ? Fixtures.portrait : Fixtures.landscape)
        case 84..<89:
            let pick = Int.random(in: -1...ladderCount, using: &generator)
            return .qualityRequested(Bool.random(using: &generator) ? .auto : .fixed(variantIndex: pick))
        case 89..<91: return .subtitleSelected(Bool.random(using: &generator) ? .off : .language("de"))
        case 91..<92: return .audioSelected(language: "en")
        case 92..<93: return .rateChanged([0.5, 1, 2, 0, -1].randomElement(using: &generator)!)
        case 93..<95: return .networkLost
        case 95..<97: return .networkRestored
        case 97..<98: return .segmentLoaded(PlaybackMachine.RequestID(1_000_000), .init(bytes: 10, downloadSeconds: 1))
        case 98..<99: return .timerFired(PlaybackMachine.RequestID(1_000_001))
        default:
            let elapsed = 0.25
            clockSeconds += elapsed
            return .tick(elapsedSeconds: elapsed)
        }
    }
}
