import Testing

@testable import Playback

/// hls.js's latency controller as `LiveSync`: the target, its growth after stalls, the start position and the
/// catch-up rate, with numbers worked from hls.js 1.6's formulas.
@Suite struct LiveSyncTests {
    /// `record --live --low-latency`: 2 s segments, 1/3 s parts, HOLD-BACK 6, PART-HOLD-BACK 1.
    static let lowLatency = LiveSync.Playlist(
        targetDurationSeconds: 2, partTargetSeconds: 1.0 / 3, holdBackSeconds: 6, partHoldBackSeconds: 1)

    @Test func theTargetIsPartHoldBackInLowLatencyModeElseHoldBackElseThreeTargetDurations() {
        var configuration = LiveSync.Configuration()
        #expect(LiveSync(configuration: configuration).targetLatency(Self.lowLatency) == 1)
        configuration.lowLatencyMode = false
        #expect(LiveSync(configuration: configuration).targetLatency(Self.lowLatency) == 6)
        let plain = LiveSync.Playlist(targetDurationSeconds: 4)
        #expect(LiveSync().targetLatency(plain) == 12)
        configuration.liveSyncDuration = 2.5
        configuration.userSetSyncDuration = true
        #expect(LiveSync(configuration: configuration).targetLatency(Self.lowLatency) == 2.5)
    }

    @Test func eachStallRaisesTheTargetByASecondUpToOneTargetDuration() {
        var sync = LiveSync()
        sync.stalled()
        #expect(sync.targetLatency(Self.lowLatency) == 2)
        sync.stalled()
        sync.stalled()
        #expect(sync.targetLatency(Self.lowLatency) == 3)  // 1 + min(3 × 1, 2)
    }

    @Test func theStartIsTheTargetBeforeTheEstimatedEdgeKeptWithinThePlaylist() {
        let sync = LiveSync()
        let at = sync.syncPosition(
            playlistStartSeconds: 0, playlistEndSeconds: 20, playlistAgeSeconds: 0.25, Self.lowLatency)
        #expect(abs(at - 19.25) < 1e-12)
        var close = LiveSync.Configuration()
        close.liveSyncDuration = 0.1
        close.userSetSyncDuration = true
        let kept = LiveSync(configuration: close).syncPosition(
            playlistStartSeconds: 0, playlistEndSeconds: 20, playlistAgeSeconds: 0, Self.lowLatency)
        #expect(abs(kept - (20 - 1.0 / 3)) < 1e-12)  // one part off the end
        let early = sync.syncPosition(
            playlistStartSeconds: 19.5, playlistEndSeconds: 20, playlistAgeSeconds: 0, Self.lowLatency)
        #expect(early == 19.5)
    }

    @Test func theCatchUpRateFollowsHlsJsOnlyWhenAllowedAndInLiveRange() {
        #expect(
            LiveSync().playbackRate(
                latencySeconds: 2, forwardBufferSeconds: 2, playlistAgeSeconds: 0, Self.lowLatency) == 1)
        var configuration = LiveSync.Configuration()
        configuration.maxLiveSyncPlaybackRate = 1.5
        let sync = LiveSync(configuration: configuration)
        func rate(_ latency: Double, buffer: Double = 2) -> Double {
            sync.playbackRate(
                latencySeconds: latency, forwardBufferSeconds: buffer, playlistAgeSeconds: 0, Self.lowLatency)
        }
        #expect(rate(1.5) == 1.2)  // 2 / (1 + e^−0.375) = 1.185, in steps of 0.05
        #expect(rate(3) == 1.5)  // 1.635, capped
        #expect(rate(1.04) == 1)  // within 0.05 s of the target
        #expect(rate(1.5, buffer: 1) == 1)  // a second or less buffered
        #expect(rate(4.5) == 1)  // more than target + one target duration behind: DVR
    }
}
