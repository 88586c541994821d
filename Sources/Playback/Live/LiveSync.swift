import Foundation

/// hls.js's latency controller (`src/controller/latency-controller.ts`, 1.6) as a value: the target latency a
/// live player aims at, the position it starts from, how the target grows after each stall, and the playback
/// rate it plays at to catch up. Pure: the caller passes the playlist's facts, the latency and the buffer.
public struct LiveSync: Sendable, Hashable {
    /// The hls.js options it models, each with hls.js's default.
    public struct Configuration: Sendable, Hashable {
        /// `lowLatencyMode` (default true): aim at PART-HOLD-BACK, load parts, make blocking reloads, catch up.
        public var lowLatencyMode = true
        /// `liveSyncDuration` (default undefined): the target latency in seconds, when the user sets it.
        public var liveSyncDuration: Double?
        /// `liveSyncDurationCount` (default 3): the target in target durations, when the playlist gives no
        /// hold-back (or the user sets it).
        public var liveSyncDurationCount: Double = 3
        /// True when the user set `liveSyncDuration` or `liveSyncDurationCount`: hls.js then uses it over the
        /// playlist's HOLD-BACK and PART-HOLD-BACK.
        public var userSetSyncDuration = false
        /// `maxLiveSyncPlaybackRate` (default 1: never faster; hls.js caps it at 2).
        public var maxLiveSyncPlaybackRate: Double = 1
        /// `liveSyncOnStallIncrease` (default 1 s): the target grows by this after each stall, by at most one
        /// target duration in all.
        public var liveSyncOnStallIncrease: Double = 1
        /// `liveMaxLatencyDurationCount` (default Infinity): beyond target + this many target durations the
        /// player counts as a DVR viewer and does not catch up.
        public var liveMaxLatencyDurationCount: Double = .infinity

        public init() {}
    }

    /// What the latency controller reads from a live media playlist.
    public struct Playlist: Sendable, Hashable {
        public var targetDurationSeconds: Double
        /// EXT-X-PART-INF PART-TARGET; nil without parts.
        public var partTargetSeconds: Double?
        /// EXT-X-SERVER-CONTROL HOLD-BACK and PART-HOLD-BACK; nil when absent.
        public var holdBackSeconds: Double?
        public var partHoldBackSeconds: Double?

        public init(
            targetDurationSeconds: Double, partTargetSeconds: Double? = nil, holdBackSeconds: Double? = nil,
            partHoldBackSeconds: Double? = nil
        ) {
            self.targetDurationSeconds = targetDurationSeconds
            self.partTargetSeconds = partTargetSeconds
            self.holdBackSeconds = holdBackSeconds
            self.partHoldBackSeconds = partHoldBackSeconds
        }

        /// The unit hls.js ages a playlist and keeps off the edge by: the part target in low-latency mode, else
        /// the target duration.
        func edgeUnit(lowLatencyMode: Bool) -> Double {
            (lowLatencyMode ? partTargetSeconds : nil) ?? targetDurationSeconds
        }
    }

    public var configuration: Configuration
    /// Stalls since the stream was loaded (hls.js counts BUFFER_STALLED_ERROR).
    public private(set) var stallCount = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// A stall: the target latency grows by `liveSyncOnStallIncrease`.
    public mutating func stalled() {
        stallCount += 1
    }

    /// Seconds behind the live edge the player aims at: PART-HOLD-BACK in low-latency mode (else HOLD-BACK), or
    /// the user's `liveSyncDuration`, or `liveSyncDurationCount` target durations when the playlist gives none;
    /// plus `liveSyncOnStallIncrease` per stall, at most one target duration.
    public func targetLatency(_ playlist: Playlist) -> Double {
        let c = configuration
        var target =
            (c.lowLatencyMode ? playlist.partHoldBackSeconds ?? playlist.holdBackSeconds : nil)
            ?? playlist.holdBackSeconds ?? 0
        if c.userSetSyncDuration || target == 0 {
            target = c.liveSyncDuration ?? c.liveSyncDurationCount * playlist.targetDurationSeconds
        }
        return target
            + min(Double(stallCount) * c.liveSyncOnStallIncrease, playlist.targetDurationSeconds)
    }

    /// How long past its expected refresh a playlist is: its age less three edge units (hls.js `edgeStalled`).
    public func edgeStalled(playlistAgeSeconds: Double, _ playlist: Playlist) -> Double {
        max(playlistAgeSeconds - 3 * playlist.edgeUnit(lowLatencyMode: configuration.lowLatencyMode), 0)
    }

    /// The position to start (or resync) at (hls.js `liveSyncPosition`): the estimated live edge (the playlist's
    /// end plus its age) less the target latency, kept within the playlist and one edge unit off its end.
    public func syncPosition(
        playlistStartSeconds: Double, playlistEndSeconds: Double, playlistAgeSeconds: Double, _ playlist: Playlist
    ) -> Double {
        let edge = playlistEndSeconds + playlistAgeSeconds
        let wanted =
            edge - targetLatency(playlist) - edgeStalled(playlistAgeSeconds: playlistAgeSeconds, playlist)
        let latest = playlistEndSeconds - playlist.edgeUnit(lowLatencyMode: configuration.lowLatencyMode)
        return min(max(playlistStartSeconds, wanted), latest)
    }

    /// The playback rate (hls.js `onTimeupdate`): in low-latency mode with `maxLiveSyncPlaybackRate` above 1,
    /// while the player is more than 0.05 s behind its target but within one target duration of it and has more
    /// than a second buffered, 2 / (1 + e^(−0.75 × distance − edgeStalled)) in steps of 0.05, between 1 and
    /// the maximum; 1 otherwise.
    public func playbackRate(
        latencySeconds: Double, forwardBufferSeconds: Double, playlistAgeSeconds: Double, _ playlist: Playlist
    ) -> Double {
        let c = configuration
        guard c.lowLatencyMode, c.maxLiveSyncPlaybackRate != 1 else { return 1 }
        let target = targetLatency(playlist)
        let distance = latencySeconds - target
        let maxLatency = c.liveMaxLatencyDurationCount * playlist.targetDurationSeconds
        let inLiveRange = distance < min(maxLatency, target + playlist.targetDurationSeconds)
        guard inLiveRange, distance > 0.05, forwardBufferSeconds > 1 else { return 1 }
        let stalledEdge = edgeStalled(playlistAgeSeconds: playlistAgeSeconds, playlist)
        let rate = (2 / (1 + exp(-0.75 * distance - stalledEdge)) * 20).rounded() / 20
        return min(min(2, max(1, c.maxLiveSyncPlaybackRate)), max(1, rate))
    }
}
