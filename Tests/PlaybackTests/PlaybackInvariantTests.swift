import Testing

@testable import Playback

/// Properties that hold whatever happens: every state against every event, and long seeded random sequences.
@Suite struct PlaybackInvariantTests {
    // MARK: - Every state against every event

    @Test(arguments: SampleState.all)
    func everyEventInEveryStateKeepsTheInvariants(sample: SampleState) {
        for event in SampleState.events(for: sample.machine) {
            var machine = sample.machine
            let effects = machine.handle(event)
            for problem in Invariants.problems(before: sample.machine, event: event, after: machine, effects: effects) {
                Issue.record("\(sample.name) + \(event): \(problem)")
            }
        }
    }

    @Test(arguments: SampleState.all)
    func answersToRequestsNotInFlightAreNoOps(sample: SampleState) {
        let stale = PlaybackMachine.RequestID(999_999)
        let events: [Event] = [
            .playlistLoaded(stale, .media(Fixtures.vod(variant: 0))), .playlistLoadFailed(stale, statusCode: 500),
            .segmentLoaded(stale, .init(bytes: 1000, downloadSeconds: 1)), .segmentLoadFailed(stale, statusCode: 404),
            .timerFired(stale),
        ]
        for event in events {
            var machine = sample.machine
            #expect(machine.handle(event) == [], "\(sample.name) + \(event)")
            #expect(machine.state.phase == sample.machine.state.phase)
            #expect(machine.positionSeconds == sample.machine.positionSeconds)
            #expect(machine.bufferSeconds == sample.machine.bufferSeconds)
        }
    }

    @Test(arguments: [PlaybackMachine.Phase.idle, .ended, .failed])
    func inIdleEndedAndFailedOnlyLoadAndRotationHaveEffects(phase: PlaybackMachine.Phase) throws {
        let sample = try #require(SampleState.all.first { $0.machine.state.phase == phase })
        for event in SampleState.events(for: sample.machine) {
            var machine = sample.machine
            let effects = machine.handle(event)
            switch event {
            case .load, .orientationChanged: continue
            default:
                #expect(effects == [], "\(sample.name) + \(event)")
                #expect(machine.state.phase == phase)
            }
        }
    }

    // MARK: - Seeded random sequences

    /// 10,000 sequences of 200 events over the corpus playlists (and a few synthetic ladders: unequal cuts, a
    /// live ladder), split into chunks that run in parallel.
    @Test(arguments: 0..<10)
    func randomSequencesKeepTheInvariants(chunk: Int) {
        let sources = CorpusPlaylists.sources + TestSource.synthetic
        for sequence in 0..<1000 {
            let seed = UInt64(chunk * 1000 + sequence)
            let source = sources[Int(seed % UInt64(sources.count))]
            if let failure = Invariants.run(source: source, seed: seed, events: 200) {
                Issue.record("seed \(seed): \(failure)")
                return
            }
        }
    }

    /// Liveness: whatever 100 random events did, once the network behaves and the user presses play, a VOD
    /// stream plays to its end (or has already failed, which is terminal).
    @Test func afterAnyRandomStartAVODStreamPlaysToItsEndOnceTheNetworkBehaves() {
        let sources = (CorpusPlaylists.sources + TestSource.synthetic).filter { source in
            !source.isLive && source.timelines.allSatisfy(\.hasEndList)
        }
        var ended = 0
        for seed in UInt64(0)..<400 {
            let source = sources[Int(seed % UInt64(sources.count))]
            var runner = RandomRunner(source: source, seed: seed)
            var machine = Fixtures.machine(viewport: seed % 2 == 0 ? Fixtures.portrait : Fixtures.landscape)
            runner.perform(machine.handle(.load(url: source.masterURL)))
            let duration = source.timelines.map(\.durationSeconds).max() ?? 0
            for _ in 0..<100 {
                runner.perform(
                    machine.handle(runner.nextEvent(ladderCount: source.stream.variants.count, duration: duration)))
            }
            for event in [Event.networkRestored, .play, .rateChanged(1)] { runner.perform(machine.handle(event)) }
            var steps = 0
            while machine.state.phase != .ended, machine.state.phase != .failed, steps < 20_000 {
                steps += 1
                let event: Event
                if !runner.segmentLoads.isEmpty {
                    let request = runner.segmentLoads.removeFirst()
                    event = .segmentLoaded(request.id, .init(bytes: 100_000, downloadSeconds: 0.1))
                } else if !runner.playlistLoads.isEmpty {
                    let request = runner.playlistLoads.removeFirst()
                    event = .playlistLoaded(request.id, source.playlist(for: request, clockSeconds: 0))
                } else if !runner.timers.isEmpty {
                    event = .timerFired(runner.timers.removeFirst())
                } else {
                    event = .tick(elapsedSeconds: 1)
                }
                runner.perform(machine.handle(event))
            }
            #expect(
                machine.state.phase == .ended || machine.state.phase == .failed,
                "seed \(seed): stuck in \(machine.state.phase) at \(machine.positionSeconds ?? -1) s")
            if machine.state.phase != .ended && machine.state.phase != .failed { return }
            if machine.state.phase == .ended { ended += 1 }
        }
        // Failing is allowed (the random events may have used up the retries), but a machine that failed every
        // start would pass the loop above: most runs must play to their end.
        #expect(ended >= 380, "only \(ended) of 400 runs played to their end")
    }

    /// Liveness, live: whatever 100 random events did, once the network behaves a live stream keeps playing as
    /// its window slides (through a media-sequence jump at 120 s of wall time).
    @Test func afterAnyRandomStartALiveStreamKeepsPlayingAsItsWindowSlides() {
        let sources = (CorpusPlaylists.sources + TestSource.synthetic).filter { source in
            source.isLive
                && source.timelines.allSatisfy { $0.segments.allSatisfy { (1...30).contains($0.durationSeconds) } }
        }
        #expect(!sources.isEmpty)
        var kept = 0
        for seed in UInt64(0)..<100 {
            let source = sources[Int(seed % UInt64(sources.count))]
            var runner = RandomRunner(source: source, seed: seed)
            var machine = Fixtures.machine(viewport: seed % 2 == 0 ? Fixtures.portrait : Fixtures.landscape)
            runner.perform(machine.handle(.load(url: source.masterURL)))
            for _ in 0..<100 {
                runner.perform(
                    machine.handle(runner.nextEvent(ladderCount: source.stream.variants.count, duration: 60)))
            }
            for event in [Event.networkRestored, .play, .rateChanged(1)] { runner.perform(machine.handle(event)) }
            if machine.state.phase == .failed { continue }
            var played = 0.0
            let end = runner.clockSeconds + 300
            var steps = 0
            while runner.clockSeconds < end, steps < 100_000 {
                steps += 1
                var events: [Event] = []
                if !runner.segmentLoads.isEmpty {
                    let request = runner.segmentLoads.removeFirst()
                    events = [.segmentLoaded(request.id, .init(bytes: 100_000, downloadSeconds: 0.1))]
                } else if !runner.playlistLoads.isEmpty {
                    let request = runner.playlistLoads.removeFirst()
                    events = [
                        .playlistLoaded(request.id, source.playlist(for: request, clockSeconds: runner.clockSeconds))
                    ]
                } else if !runner.timers.isEmpty {
                    // A timer goes off after its delay (stale ones too: the machine ignores them).
                    let timer = runner.timers.removeFirst()
                    let delay = runner.timerDelays[timer] ?? 0
                    events = [.tick(elapsedSeconds: max(delay, 0.01)), .timerFired(timer)]
                } else {
                    events = [.tick(elapsedSeconds: 0.5)]
                }
                for event in events {
                    if case .tick(let elapsed) = event {
                        runner.clockSeconds += elapsed
                        if machine.state.phase == .playing { played += elapsed }
                    }
                    runner.perform(machine.handle(event))
                }
                if machine.state.phase == .failed { break }
            }
            #expect(
                machine.state.phase == .failed || played > 150,
                "seed \(seed): played \(played) of 300 s, \(machine.state.phase)")
            if !(machine.state.phase == .failed || played > 150) { return }
            if played > 150 { kept += 1 }
        }
        // As above: failing is allowed, failing every run is not.
        #expect(kept >= 95, "only \(kept) of 100 runs kept playing")
    }
}

/// The invariants of issue 6, checked after one event.
enum Invariants {
    static let tolerance = 1e-6

    /// What the invariants look at, taken from a machine once per step.
    struct Snapshot {
        var phase: PlaybackMachine.Phase
        var positionSeconds: Double?
        var bufferedUntilSeconds: Double?
        var variantInfos: [VariantInfo]?
        var preferences: PlaybackMachine.Preferences

        init(_ machine: PlaybackMachine) {
            phase = machine.state.phase
            preferences = machine.preferences
            if let session = machine.state.session {
                positionSeconds = session.positionSeconds
                bufferedUntilSeconds = session.bufferedUntilSeconds
                variantInfos = session.stream.variantInfos
            }
        }
    }

    static func problems(
        before: PlaybackMachine, event: Event, after: PlaybackMachine, effects: [Effect]
    ) -> [String] {
        problems(before: Snapshot(before), event: event, after: Snapshot(after), effects: effects)
    }

    static func problems(before: Snapshot, event: Event, after: Snapshot, effects: [Effect]) -> [String] {
        var problems: [String] = []
        let beforePhase = before.phase
        let afterPhase = after.phase
        var loadsSegment = false
        var loadsAnything = false
        var resync: Double?
        for effect in effects {
            switch effect {
            case .loadSegment:
                loadsSegment = true
                loadsAnything = true
            case .loadPlaylist: loadsAnything = true
            case .report(.positionResynced(_, let to)): resync = to
            default: break
            }
        }
        // No load after ended or failed (only a new `load` starts over).
        if beforePhase == .ended || beforePhase == .failed, !isLoad(event), loadsAnything {
            problems.append("load effect after \(beforePhase): \(effects)")
        }
        if afterPhase == .ended || afterPhase == .failed, !isLoad(event), loadsSegment {
            problems.append("segment load on the way to \(afterPhase)")
        }
        // The buffer is never negative.
        if let end = after.bufferedUntilSeconds, let position = after.positionSeconds, end < position - tolerance {
            problems.append("negative buffer: \(end) < \(position)")
        }
        // The position moves only with time, on a seek, or on a reported resync.
        if let old = before.positionSeconds, let new = after.positionSeconds, !isLoad(event) {
            switch event {
            case .seek:
                break
            case _ where resync != nil:
                if let resync, abs(new - resync) > tolerance {
                    problems.append("resync to \(resync) but position \(new)")
                }
            case .tick(let elapsed):
                let most = elapsed.isFinite && elapsed > 0 ? elapsed * before.preferences.rate : 0
                if new < old - tolerance || new > old + most + tolerance {
                    problems.append("tick \(elapsed) moved the position \(old) → \(new)")
                }
            default:
                if abs(new - old) > tolerance {
                    problems.append("\(event) moved the position \(old) → \(new)")
                }
            }
        }
        // Orientation and quality keep position and play/pause.
        switch event {
        case .orientationChanged, .qualityRequested:
            if before.preferences.wantsToPlay != after.preferences.wantsToPlay {
                problems.append("\(event) changed play/pause")
            }
            let phaseKept =
                beforePhase == afterPhase || (isQuality(event) && beforePhase == .playing && afterPhase == .rebuffering)
            if !phaseKept { problems.append("\(event) changed \(beforePhase) → \(afterPhase)") }
            if case .orientationChanged = event {
                if before.positionSeconds != after.positionSeconds {
                    problems.append("rotation moved the position")
                }
                if before.bufferedUntilSeconds != after.bufferedUntilSeconds {
                    problems.append("rotation changed the buffer")
                }
                for effect in effects where effect != .presentFullScreen && effect != .exitFullScreen {
                    problems.append("rotation did more than change full screen: \(effect)")
                }
            }
        default:
            break
        }
        // In auto, a selection never exceeds the viewport cap.
        if loadsSegment, after.preferences.quality == .auto, let variants = after.variantInfos {
            let cap = QualitySelector.viewportCap(variants: variants, viewport: after.preferences.viewport)
            for case .loadSegment(let request) in effects where request.variantIndex > cap {
                problems.append("auto picked variant \(request.variantIndex) above the viewport cap \(cap)")
            }
        }
        return problems
    }

    private static func isLoad(_ event: Event) -> Bool {
        if case .load = event { return true }
        return false
    }

    private static func isQuality(_ event: Event) -> Bool {
        if case .qualityRequested = event { return true }
        return false
    }

    /// Plays one seeded sequence; returns the first broken invariant, or nil.
    static func run(source: TestSource, seed: UInt64, events count: Int) -> String? {
        var runner = RandomRunner(source: source, seed: seed)
        // Every rule takes its turn: the invariants may not depend on the selection rule.
        let rule = ABRRuleKind.allCases[Int(seed / 2 % UInt64(ABRRuleKind.allCases.count))]
        var machine = PlaybackMachine(
            selector: QualitySelector(rule: rule), viewport: seed % 2 == 0 ? Fixtures.portrait : Fixtures.landscape)
        var effects = machine.handle(.load(url: source.masterURL))
        runner.perform(effects)
        let duration = source.timelines.map(\.durationSeconds).max() ?? 0
        var before = Snapshot(machine)
        for step in 0..<count {
            let event = runner.nextEvent(ladderCount: source.stream.variants.count, duration: duration)
            effects = machine.handle(event)
            let after = Snapshot(machine)
            if let problem = problems(before: before, event: event, after: after, effects: effects).first {
                return "step \(step), \(event): \(problem)"
            }
            before = after
            runner.perform(effects)
            if runner.segmentLoads.count > 1 {
                return "step \(step): \(runner.segmentLoads.count) segment loads in flight"
            }
        }
        return nil
    }
}

extension TestSource {
    /// The random runs' streams: VOD ladders with equal and unequal cuts, a live ladder, a single media playlist.
    static let synthetic: [TestSource] = {
        let ladder = Fixtures.ladder()
        let equal = (0..<4).map { Fixtures.vod(variant: $0, count: 12) }
        let unequal = (0..<4).map { variant in
            MediaTimeline(
                durations: Array(repeating: variant % 2 == 0 ? 4 : 6.006, count: variant % 2 == 0 ? 12 : 8),
                targetDurationSeconds: 6, uriPrefix: "v\(variant)/s")
        }
        return [
            TestSource(stream: ladder, timelines: equal, isLive: false),
            TestSource(stream: ladder, timelines: unequal, isLive: false),
            TestSource(stream: ladder, timelines: equal, isLive: true),
            TestSource(
                stream: .single(uri: Fixtures.masterURL), timelines: [equal[0]], isLive: false, isSingleMedia: true),
        ]
    }()
}

/// A machine in one of its states, for the state × event sweep.
struct SampleState: Sendable, CustomTestStringConvertible {
    var name: String
    var machine: PlaybackMachine
    var testDescription: String { name }

    static let all: [SampleState] = {
        var samples: [SampleState] = []
        func add(_ name: String, _ events: [Event], viewport: Viewport = Fixtures.portrait) {
            var machine = Fixtures.machine(viewport: viewport)
            for event in events { _ = machine.handle(event) }
            samples.append(SampleState(name: name, machine: machine))
        }
        let master = Fixtures.masterURL
        let fast = Fixtures.download(bytes: 400_000, megabitsPerSecond: 20)
        let ladder = PlaybackMachine.LoadedPlaylist.multivariant(Fixtures.ladder(timelines: true))
        add("idle", [])
        add("loading the multivariant playlist", [.load(url: master)])
        add("loading a variant", [.load(url: master), .playlistLoaded(id(1), .multivariant(Fixtures.ladder()))])
        add("loading, retry pending", [.load(url: master), .playlistLoadFailed(id(1), statusCode: 503)])
        add("loading offline", [.load(url: master), .networkLost])
        add("start-up buffering", [.load(url: master), .playlistLoaded(id(1), ladder)])
        add("playing", [.load(url: master), .playlistLoaded(id(1), ladder), .segmentLoaded(id(2), fast)])
        add(
            "playing, switch waiting for a playlist",
            [
                .load(url: master), .playlistLoaded(id(1), .multivariant(Fixtures.ladder())),
                .playlistLoaded(id(2), .media(Fixtures.vod(variant: 0))), .segmentLoaded(id(3), fast),
            ])
        add(
            "playing, retry pending",
            [
                .load(url: master), .playlistLoaded(id(1), ladder), .segmentLoaded(id(2), fast),
                .segmentLoadFailed(id(3), statusCode: 500),
            ])
        add(
            "playing offline",
            [.load(url: master), .playlistLoaded(id(1), ladder), .segmentLoaded(id(2), fast), .networkLost])
        add("paused", [.load(url: master), .playlistLoaded(id(1), ladder), .segmentLoaded(id(2), fast), .pause])
        add(
            "playing in landscape", [.load(url: master), .playlistLoaded(id(1), ladder), .segmentLoaded(id(2), fast)],
            viewport: Fixtures.landscape)
        add(
            "rebuffering",
            [.load(url: master), .playlistLoaded(id(1), ladder), .segmentLoaded(id(2), fast), .tick(elapsedSeconds: 5)])
        add(
            "seeking",
            [.load(url: master), .playlistLoaded(id(1), ladder), .segmentLoaded(id(2), fast), .seek(toSeconds: 30)])
        add(
            "live",
            [
                .load(url: "live.m3u8"), .playlistLoaded(id(1), .media(Fixtures.live(variant: 0, first: 7))),
                .segmentLoaded(id(3), fast),
            ])
        var ended = Fixtures.machine()
        _ = ended.handle(.load(url: master))
        _ = ended.handle(.playlistLoaded(id(1), .multivariant(Fixtures.ladder(timelines: true))))
        for _ in 0..<40 {
            if let request = ended.segmentInFlight { _ = ended.handle(.segmentLoaded(request.id, fast)) }
            _ = ended.handle(.tick(elapsedSeconds: 2))
        }
        samples.append(SampleState(name: "ended", machine: ended))
        add(
            "failed",
            [
                .load(url: master), .playlistLoadFailed(id(1), statusCode: 404), .timerFired(id(2)),
                .playlistLoadFailed(id(3), statusCode: 404), .timerFired(id(4)),
                .playlistLoadFailed(id(5), statusCode: 404),
            ])
        return samples
    }()

    /// Every kind of event, with the ids of what is in flight in `machine` plus odd payloads.
    static func events(for machine: PlaybackMachine) -> [Event] {
        var ids: [PlaybackMachine.RequestID] = [id(1), id(2), id(3), id(4), id(5)]
        if let segment = machine.segmentInFlight { ids.append(segment.id) }
        var events: [Event] = [
            .load(url: Fixtures.masterURL), .play, .pause, .networkLost, .networkRestored,
            .orientationChanged(Fixtures.portrait), .orientationChanged(Fixtures.landscape),
            .qualityRequested(.auto), .qualityRequested(.fixed(variantIndex: 0)),
            .qualityRequested(.fixed(variantIndex: 3)),
            .qualityRequested(.fixed(variantIndex: 99)), .qualityRequested(.fixed(variantIndex: -1)),
            .subtitleSelected(.language("de")), .subtitleSelected(.off), .audioSelected(language: "en"),
            .rateChanged(2), .rateChanged(0), .rateChanged(-.infinity), .rateChanged(.nan),
        ]
        for elapsed in [0, 0.5, 3, 100, -1, Double.nan, Double.infinity] {
            events.append(.tick(elapsedSeconds: elapsed))
        }
        for target in [-5, 0, 13, 1e12, Double.nan, -Double.infinity] { events.append(.seek(toSeconds: target)) }
        for requestID in ids {
            events += [
                .playlistLoaded(requestID, .multivariant(Fixtures.ladder())),
                .playlistLoaded(requestID, .media(Fixtures.vod(variant: 1))),
                .playlistLoaded(requestID, .media(MediaTimeline(durations: []))),
                .playlistLoadFailed(requestID, statusCode: 404), .playlistLoadFailed(requestID, statusCode: nil),
                .segmentLoaded(requestID, .init(bytes: 750_000, downloadSeconds: 0.5)),
                .segmentLoaded(requestID, .init(bytes: 0, downloadSeconds: 0, timeToFirstByteSeconds: -1)),
                .segmentLoadFailed(requestID, statusCode: 404), .timerFired(requestID),
            ]
        }
        return events
    }
}
