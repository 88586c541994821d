import Testing

@testable import Playback

/// Scripted scenarios: the whole effect list is asserted after every event.
@Suite struct PlaybackMachineTests {
    private let master = Fixtures.masterURL

    @Test func startUpLoadsTheMultivariantPlaylistThenTheSelectedVariantAndItsFirstSegment() {
        var machine = Fixtures.machine()
        #expect(machine.send(.load(url: master)) == [.loadPlaylist(.init(id: id(1), url: master))])
        #expect(machine.state.phase == .loading)
        #expect(machine.send(.tick(elapsedSeconds: 0.25)) == [])
        // No estimate yet: the lowest variant.
        #expect(
            machine.send(.playlistLoaded(id(1), .multivariant(Fixtures.ladder()))) == [variantPlaylist(2, variant: 0)])
        #expect(
            machine.send(.playlistLoaded(id(2), .media(Fixtures.vod(variant: 0))))
                == [switched(from: nil, to: 0, at: 0, .initial), segment(3, variant: 0, sequence: 0, start: 0)])
        #expect(machine.state.phase == .startupBuffering)
        #expect(machine.positionSeconds == 0)
        #expect(machine.send(.tick(elapsedSeconds: 0.5)) == [])
        // 4 s buffered: playback starts; 8 Mbit/s measured, the portrait cap allows 540p (variant 1).
        #expect(
            machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 400_000, megabitsPerSecond: 8)))
                == [.report(.playbackStarted(atSeconds: 0, startupSeconds: 0.75)), variantPlaylist(4, variant: 1)])
        #expect(machine.state.phase == .playing)
        // The switch continues at the media time where the buffer ends (4 s), with variant 1's segment 1.
        #expect(
            machine.send(.playlistLoaded(id(4), .media(Fixtures.vod(variant: 1))))
                == [switched(from: 0, to: 1, at: 4, .seamless), segment(5, variant: 1, sequence: 1, start: 4)])
    }

    @Test func steadyPlayKeepsTheBufferBelowItsLimitAndEndsAfterTheLastSegment() {
        var configuration = PlaybackConfiguration()
        configuration.maxBufferSeconds = 12
        var machine = Fixtures.machine(configuration: configuration)
        // Slow network (1 Mbit/s): variant 0 throughout.
        startSlowly(&machine, ladder: Fixtures.ladder(timelines: true))
        #expect(
            machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 400_000, megabitsPerSecond: 1)))
                == [segment(4, variant: 0, sequence: 2, start: 8)])
        // 12 s buffered: the loader rests.
        #expect(machine.send(.segmentLoaded(id(4), Fixtures.download(bytes: 400_000, megabitsPerSecond: 1))) == [])
        #expect(machine.bufferSeconds == 12)
        // Time passes: below the limit, the next segment is requested.
        #expect(machine.send(.tick(elapsedSeconds: 0.5)) == [segment(5, variant: 0, sequence: 3, start: 12)])
        #expect(machine.positionSeconds == 0.5)
        var nextID = 6
        var sequence = 3
        var effects: [Effect] = []
        while sequence < 9 {
            effects = machine.send(
                .segmentLoaded(id(nextID - 1), Fixtures.download(bytes: 400_000, megabitsPerSecond: 1)))
            #expect(effects == [])
            effects = machine.send(.tick(elapsedSeconds: 4))
            sequence += 1
            #expect(effects == [segment(nextID, variant: 0, sequence: sequence, start: Double(sequence) * 4)])
            nextID += 1
        }
        #expect(
            machine.send(.segmentLoaded(id(nextID - 1), Fixtures.download(bytes: 400_000, megabitsPerSecond: 1))) == [])
        #expect(machine.positionSeconds == 24.5)
        #expect(machine.send(.tick(elapsedSeconds: 15)) == [])
        #expect(machine.state.phase == .playing)
        #expect(machine.send(.tick(elapsedSeconds: 1)) == [.report(.ended(atSeconds: 40))])
        #expect(machine.state.phase == .ended)
        #expect(machine.send(.play) == [])
        #expect(machine.send(.seek(toSeconds: 3)) == [])
        #expect(machine.send(.tick(elapsedSeconds: 1)) == [])
        #expect(machine.positionSeconds == 40)
    }

    @Test func aStallStartsWhenTheBufferRunsDryAndEndsWhenEnoughIsBufferedAgain() {
        var machine = startedOnVariantZero()
        // Segment 1 (#3) is still loading when the 4 s buffered run out.
        #expect(machine.send(.tick(elapsedSeconds: 3)) == [])
        #expect(machine.send(.tick(elapsedSeconds: 1.5)) == [.report(.stallStarted(atSeconds: 4, cause: .bufferEmpty))])
        #expect(machine.state.phase == .rebuffering)
        #expect(machine.positionSeconds == 4)
        #expect(machine.send(.tick(elapsedSeconds: 1)) == [])
        #expect(machine.positionSeconds == 4)
        #expect(
            machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 400_000, megabitsPerSecond: 0.6)))
                == [
                    .report(.stallEnded(atSeconds: 4, durationSeconds: 1.5)),
                    segment(4, variant: 0, sequence: 2, start: 8),
                ])
        #expect(machine.state.phase == .playing)
        #expect(machine.send(.tick(elapsedSeconds: 1)) == [])
        #expect(machine.positionSeconds == 5)
    }

    @Test(arguments: [true, false])
    func rotatingMidSegmentKeepsPositionPlayStateAndChoicesAndOnlyMovesTheCap(playing: Bool) throws {
        var machine = startedOnVariantZero(megabitsPerSecond: 20)
        _ = machine.send(.subtitleSelected(.language("de")))
        _ = machine.send(.audioSelected(language: "en"))
        _ = machine.send(.rateChanged(1.5))
        #expect(machine.send(.tick(elapsedSeconds: 1)) == [])
        if !playing { #expect(machine.send(.pause) == []) }
        let phase = machine.state.phase
        let position = machine.positionSeconds
        let buffer = machine.bufferSeconds
        let inFlight = try #require(machine.segmentInFlight)
        #expect(inFlight.variantIndex == 1)  // Capped at 540p in portrait although 20 Mbit/s were measured.

        #expect(machine.send(.orientationChanged(Fixtures.landscape)) == [.presentFullScreen])
        #expect(machine.state.phase == phase)
        #expect(machine.positionSeconds == position)
        #expect(machine.bufferSeconds == buffer)
        #expect(machine.segmentInFlight == inFlight)
        // The next segment may be 1080p now, taken at the media time where the buffer ends.
        #expect(
            machine.send(.segmentLoaded(inFlight.id, Fixtures.download(bytes: 750_000, megabitsPerSecond: 20)))
                == [switched(from: 1, to: 3, at: 8, .seamless), segment(4, variant: 3, sequence: 2, start: 8)])
        #expect(machine.send(.orientationChanged(Fixtures.portrait)) == [.exitFullScreen])
        #expect(
            machine.send(.segmentLoaded(id(4), Fixtures.download(bytes: 3_000_000, megabitsPerSecond: 20)))
                == [switched(from: 3, to: 1, at: 12, .seamless), segment(5, variant: 1, sequence: 3, start: 12)])
        #expect(machine.state.phase == phase)
        #expect(machine.positionSeconds == position)
        #expect(machine.preferences.subtitles == .language("de"))
        #expect(machine.preferences.audioLanguage == "en")
        #expect(machine.preferences.rate == 1.5)
        #expect(machine.send(.orientationChanged(Fixtures.portrait)) == [])  // Same orientation, nothing to do.
    }

    @Test func aManualPickFlushesAndReloadsAtTheCurrentPositionAndAutoSwitchesBackSeamlessly() {
        var machine = startedOnVariantZero(megabitsPerSecond: 20)
        #expect(
            machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 750_000, megabitsPerSecond: 20)))
                == [segment(4, variant: 1, sequence: 2, start: 8)])
        #expect(machine.send(.tick(elapsedSeconds: 5.5)) == [])
        #expect(machine.positionSeconds == 5.5)
        // 720p by hand: the buffered 540p and the load in flight go; 720p loads from 5.5 s.
        #expect(
            machine.send(.qualityRequested(.fixed(variantIndex: 2)))
                == [
                    .cancelLoad(id(4)), .report(.stallStarted(atSeconds: 5.5, cause: .qualityFlush)),
                    switched(from: 1, to: 2, at: 5.5, .manual), segment(5, variant: 2, sequence: 1, start: 4),
                ])
        #expect(machine.positionSeconds == 5.5)
        #expect(machine.bufferSeconds == 0)
        #expect(machine.state.phase == .rebuffering)
        // The cancelled load's late answer is ignored.
        #expect(machine.send(.segmentLoaded(id(4), Fixtures.download(bytes: 1, megabitsPerSecond: 1))) == [])
        // 2.5 s buffered (5.5…8): not enough to resume; the next 720p segment follows.
        #expect(
            machine.send(.segmentLoaded(id(5), Fixtures.download(bytes: 1_500_000, megabitsPerSecond: 20)))
                == [segment(6, variant: 2, sequence: 2, start: 8)])
        #expect(
            machine.send(.segmentLoaded(id(6), Fixtures.download(bytes: 1_500_000, megabitsPerSecond: 20)))
                == [
                    .report(.stallEnded(atSeconds: 5.5, durationSeconds: 0)),
                    segment(7, variant: 2, sequence: 3, start: 12),
                ])
        #expect(machine.state.phase == .playing)
        // Back to auto: no flush; the next segment is capped to 540p again (portrait).
        #expect(machine.send(.qualityRequested(.auto)) == [])
        #expect(
            machine.send(.segmentLoaded(id(7), Fixtures.download(bytes: 1_500_000, megabitsPerSecond: 20)))
                == [switched(from: 2, to: 1, at: 16, .seamless), segment(8, variant: 1, sequence: 4, start: 16)])
        #expect(machine.positionSeconds == 5.5)
        #expect(machine.bufferSeconds == 10.5)
    }

    @Test func aSeekDuringASwitchFlushesAndTheSwitchGoesOnAtTheSeekTarget() {
        var machine = Fixtures.machine()
        _ = machine.send(.load(url: master))
        _ = machine.send(.playlistLoaded(id(1), .multivariant(Fixtures.ladder())))
        _ = machine.send(.playlistLoaded(id(2), .media(Fixtures.vod(variant: 0))))
        #expect(
            machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 400_000, megabitsPerSecond: 8)))
                == [.report(.playbackStarted(atSeconds: 0, startupSeconds: 0)), variantPlaylist(4, variant: 1)])
        #expect(machine.send(.tick(elapsedSeconds: 1)) == [])
        // Waiting for variant 1's playlist; the user seeks to 21 s.
        #expect(machine.send(.seek(toSeconds: 21)) == [])
        #expect(machine.state.phase == .seeking)
        #expect(machine.positionSeconds == 21)
        #expect(
            machine.send(.playlistLoaded(id(4), .media(Fixtures.vod(variant: 1))))
                == [switched(from: 0, to: 1, at: 21, .seamless), segment(5, variant: 1, sequence: 5, start: 20)])
        #expect(
            machine.send(.segmentLoaded(id(5), Fixtures.download(bytes: 750_000, megabitsPerSecond: 8)))
                == [segment(6, variant: 1, sequence: 6, start: 24)])
        #expect(
            machine.send(.segmentLoaded(id(6), Fixtures.download(bytes: 750_000, megabitsPerSecond: 8)))
                == [.report(.seekCompleted(atSeconds: 21)), segment(7, variant: 1, sequence: 7, start: 28)])
        #expect(machine.state.phase == .playing)
        #expect(machine.positionSeconds == 21)
        // A seek inside the buffer ahead keeps it.
        #expect(machine.send(.seek(toSeconds: 25)) == [.report(.seekCompleted(atSeconds: 25))])
        #expect(machine.bufferSeconds == 3)
    }

    @Test func aSegmentThatKeepsFailingIsRetriedWithBackoffThenTheSelectorStepsDown() throws {
        var machine = startedOnVariantZero(megabitsPerSecond: 20)
        guard var failing = machine.segmentInFlight else {
            Issue.record("no segment in flight")
            return
        }
        #expect(failing.variantIndex == 1)
        var nextID = 4
        for attempt in 1...3 {
            #expect(
                machine.send(.segmentLoadFailed(failing.id, statusCode: 404))
                    == [
                        .report(.segmentRetried(variantIndex: 1, mediaSequence: 1, attempt: attempt, statusCode: 404)),
                        .scheduleRetry(.init(id: id(nextID), afterSeconds: [0.5, 1, 2][attempt - 1])),
                    ])
            failing.id = id(nextID + 1)
            #expect(machine.send(.timerFired(id(nextID))) == [.loadSegment(failing)])
            nextID += 2
        }
        #expect(
            machine.send(.segmentLoadFailed(failing.id, statusCode: 404))
                == [
                    .report(.steppedDown(variantIndex: 1, capIndex: 0, statusCode: 404)),
                    switched(from: 1, to: 0, at: 4, .stepDown), segment(nextID, variant: 0, sequence: 1, start: 4),
                ])
        #expect(machine.state.phase == .playing)
        // The lowest variant failing too ends playback.
        nextID += 1
        for _ in 1...3 {
            _ = machine.send(.segmentLoadFailed(machine.segmentInFlight?.id ?? id(0), statusCode: 404))
            _ = machine.send(.timerFired(id(nextID)))
            nextID += 2
        }
        let lowest = try #require(machine.segmentInFlight)
        let reason = PlaybackFailure.segmentUnavailable(url: "v0/s1.ts", statusCode: 404, attempts: 4)
        #expect(machine.send(.segmentLoadFailed(lowest.id, statusCode: 404)) == [.report(.failed(reason))])
        guard case .failed(let failure) = machine.state else {
            Issue.record("expected failed, got \(machine.state.phase)")
            return
        }
        #expect(failure.reason == reason)
        #expect(machine.send(.tick(elapsedSeconds: 10)) == [])
        #expect(machine.send(.networkRestored) == [])
    }

    @Test func aPlaylistThatCannotBeLoadedEndsInFailedWithTheURLAndStatus() {
        var machine = Fixtures.machine()
        _ = machine.send(.load(url: master))
        #expect(
            machine.send(.playlistLoadFailed(id(1), statusCode: 503))
                == [
                    .report(.playlistRetried(url: master, attempt: 1, statusCode: 503)),
                    .scheduleRetry(.init(id: id(2), afterSeconds: 0.5)),
                ])
        #expect(machine.send(.timerFired(id(2))) == [.loadPlaylist(.init(id: id(3), url: master))])
        _ = machine.send(.playlistLoadFailed(id(3), statusCode: 404))
        #expect(machine.send(.timerFired(id(4))) == [.loadPlaylist(.init(id: id(5), url: master))])
        let reason = PlaybackFailure.playlistUnavailable(url: master, statusCode: 404, attempts: 3)
        #expect(machine.send(.playlistLoadFailed(id(5), statusCode: 404)) == [.report(.failed(reason))])
        #expect(machine.state.phase == .failed)
        #expect(reason.description == "playlist \(master) could not be loaded (HTTP 404, 3 attempt(s))")
        // Only a new load leaves `failed`.
        #expect(machine.send(.load(url: master)) == [.loadPlaylist(.init(id: id(6), url: master))])
    }

    @Test func goingOfflineCancelsLoadsAndComingBackResumesThem() {
        var machine = startedOnVariantZero()
        #expect(machine.send(.networkLost) == [.cancelLoad(id(3))])
        #expect(machine.send(.tick(elapsedSeconds: 1)) == [])
        #expect(machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 400_000, megabitsPerSecond: 1))) == [])
        #expect(machine.send(.networkRestored) == [segment(4, variant: 0, sequence: 1, start: 4)])
        #expect(machine.positionSeconds == 1)
    }

    @Test func aLiveStreamStartsAtTheHoldBackReloadsEveryTargetDurationAndFollowsTheSlidingWindow() {
        let url = "https://cdn.example/live.m3u8"
        func liveSegment(_ number: Int, sequence: Int, start: Double) -> Effect {
            .loadSegment(
                .init(
                    id: id(number), variantIndex: 0, mediaSequence: sequence, uri: "v0/live\(sequence).ts",
                    playlistURL: url, byteRange: nil, startSeconds: start, durationSeconds: 4))
        }
        let reload = PlaybackMachine.PlaylistRequest(id: id(0), url: url, variantIndex: 0)
        func reloadRequest(_ number: Int) -> Effect {
            var request = reload
            request.id = id(number)
            return .loadPlaylist(request)
        }
        let download = Fixtures.download(bytes: 400_000, megabitsPerSecond: 8)
        var machine = Fixtures.machine()
        #expect(machine.send(.load(url: url)) == [.loadPlaylist(.init(id: id(1), url: url))])
        // Window 100…105 (0…24 s): no EXT-X-START, no HOLD-BACK, so three target durations from the edge: 12 s.
        #expect(
            machine.send(.playlistLoaded(id(1), .media(Fixtures.live(variant: 0, first: 100))))
                == [
                    .scheduleReload(.init(id: id(2), afterSeconds: 4)), switched(from: nil, to: 0, at: 12, .initial),
                    liveSegment(3, sequence: 103, start: 12),
                ])
        #expect(
            machine.send(.segmentLoaded(id(3), download))
                == [
                    .report(.playbackStarted(atSeconds: 12, startupSeconds: 0)),
                    liveSegment(4, sequence: 104, start: 16),
                ])
        #expect(machine.send(.tick(elapsedSeconds: 2)) == [])
        #expect(machine.send(.timerFired(id(2))) == [reloadRequest(5)])
        // The window slid by one segment: one target duration to the next reload.
        #expect(
            machine.send(.playlistLoaded(id(5), .media(Fixtures.live(variant: 0, first: 101))))
                == [.scheduleReload(.init(id: id(6), afterSeconds: 4))])
        #expect(machine.send(.timerFired(id(6))) == [reloadRequest(7)])
        // Unchanged: half a target duration.
        #expect(
            machine.send(.playlistLoaded(id(7), .media(Fixtures.live(variant: 0, first: 101))))
                == [.scheduleReload(.init(id: id(8), afterSeconds: 2))])
        #expect(machine.send(.segmentLoaded(id(4), download)) == [liveSegment(9, sequence: 105, start: 20)])
        #expect(machine.send(.segmentLoaded(id(9), download)) == [liveSegment(10, sequence: 106, start: 24)])
        // At the live edge (28 s): nothing to load until the next reload.
        #expect(machine.send(.segmentLoaded(id(10), download)) == [])
        #expect(machine.positionSeconds == 14)
        // The media sequence jumps to 200: placed by PROGRAM-DATE-TIME at 400 s, far past the buffer, so the
        // player moves to the hold-back point of the new window.
        #expect(machine.send(.timerFired(id(8))) == [reloadRequest(11)])
        #expect(
            machine.send(.playlistLoaded(id(11), .media(Fixtures.live(variant: 0, first: 200))))
                == [
                    .scheduleReload(.init(id: id(12), afterSeconds: 4)),
                    .report(.positionResynced(fromSeconds: 14, toSeconds: 412)),
                    liveSegment(13, sequence: 203, start: 412),
                ])
        #expect(machine.positionSeconds == 412)
        // EXT-X-ENDLIST: no more reloads; the stream ends after its last segment.
        #expect(machine.send(.timerFired(id(12))) == [reloadRequest(14)])
        #expect(
            machine.send(.playlistLoaded(id(14), .media(Fixtures.live(variant: 0, first: 201, endList: true)))) == [])
        #expect(machine.send(.segmentLoaded(id(13), download)) == [liveSegment(15, sequence: 204, start: 416)])
        #expect(machine.send(.segmentLoaded(id(15), download)) == [liveSegment(16, sequence: 205, start: 420)])
        #expect(machine.send(.segmentLoaded(id(16), download)) == [liveSegment(17, sequence: 206, start: 424)])
        #expect(machine.send(.segmentLoaded(id(17), download)) == [])
        #expect(machine.send(.tick(elapsedSeconds: 20)) == [.report(.ended(atSeconds: 428))])
    }

    @Test func aLoadDuringPlaybackCancelsEverythingAndStartsOver() {
        var machine = startedOnVariantZero()
        #expect(
            machine.send(.load(url: "https://cdn.example/other.m3u8"))
                == [.cancelLoad(id(3)), .loadPlaylist(.init(id: id(4), url: "https://cdn.example/other.m3u8"))])
        #expect(machine.state.phase == .loading)
        #expect(machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 1, megabitsPerSecond: 1))) == [])
    }

    @Test func aSeamlessSwitchBetweenDifferentCutsContinuesAtTheSameMediaTimeNotTheSameIndex() {
        // Variant 0 is cut every 4 s, variant 1 every 6 s.
        var ladder = Fixtures.ladder(timelines: true)
        var variants = ladder.variants
        variants[1].timeline = MediaTimeline(
            durations: Array(repeating: 6, count: 7), targetDurationSeconds: 6, uriPrefix: "v1/s")
        ladder = StreamDescription(variants: variants, renditions: ladder.renditions)
        var machine = Fixtures.machine()
        // Slow first download: variant 0 again.
        startSlowly(&machine, ladder: ladder)
        // Fast now: up to variant 1. The buffer ends at 8 s, inside variant 1's segment 1 (6…12), not its
        // segment 2 (12…18) as the index would say.
        #expect(
            machine.send(.segmentLoaded(id(3), Fixtures.download(bytes: 400_000, megabitsPerSecond: 40)))
                == [
                    switched(from: 0, to: 1, at: 8, .seamless),
                    segment(4, variant: 1, sequence: 1, start: 6, duration: 6),
                ])
        #expect(
            machine.send(.segmentLoaded(id(4), Fixtures.download(bytes: 1_125_000, megabitsPerSecond: 40))) == [
                segment(5, variant: 1, sequence: 2, start: 12, duration: 6)
            ])
        #expect(machine.bufferSeconds == 12)
        #expect(machine.positionSeconds == 0)
    }

    @Test func goingOfflineWhileLoadingParksThePlaylistRequestUntilTheNetworkIsBack() {
        var machine = Fixtures.machine()
        #expect(machine.send(.networkLost) == [])
        #expect(machine.send(.load(url: master)) == [])
        #expect(machine.send(.networkRestored) == [.loadPlaylist(.init(id: id(1), url: master))])
        #expect(machine.send(.networkLost) == [.cancelLoad(id(1))])
        #expect(machine.send(.playlistLoaded(id(1), .multivariant(Fixtures.ladder()))) == [])
        #expect(machine.send(.networkRestored) == [.loadPlaylist(.init(id: id(2), url: master))])
        #expect(machine.state.phase == .loading)
    }

    // MARK: - Helpers

    /// Loads `ladder` (every timeline known) and brings in the first segment (variant 0, #2) at 1 Mbit/s,
    /// asserting each step's effects: the initial switch with that segment's request, then playback starts and
    /// variant 0's second segment (#3) is requested.
    private func startSlowly(_ machine: inout PlaybackMachine, ladder: StreamDescription) {
        _ = machine.send(.load(url: master))
        #expect(
            machine.send(.playlistLoaded(id(1), .multivariant(ladder)))
                == [switched(from: nil, to: 0, at: 0, .initial), segment(2, variant: 0, sequence: 0, start: 0)])
        #expect(
            machine.send(.segmentLoaded(id(2), Fixtures.download(bytes: 400_000, megabitsPerSecond: 1)))
                == [
                    .report(.playbackStarted(atSeconds: 0, startupSeconds: 0)),
                    segment(3, variant: 0, sequence: 1, start: 4),
                ])
    }

    /// Loaded with every variant's timeline known, first segment (variant 0) in at `megabitsPerSecond`; the
    /// second segment (#3) is in flight.
    private func startedOnVariantZero(megabitsPerSecond: Double = 0.6) -> PlaybackMachine {
        var machine = Fixtures.machine()
        _ = machine.send(.load(url: master))
        _ = machine.send(.playlistLoaded(id(1), .multivariant(Fixtures.ladder(timelines: true))))
        _ = machine.send(.segmentLoaded(id(2), Fixtures.download(bytes: 400_000, megabitsPerSecond: megabitsPerSecond)))
        #expect(machine.state.phase == .playing)
        #expect(machine.segmentInFlight?.id == id(3))
        return machine
    }
}
