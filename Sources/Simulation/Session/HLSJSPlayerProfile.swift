import Playback

/// How hls.js 1.6 (default configuration) buffers where the simulator's own player model differs; a session
/// whose rule is `hlsjs` plays with it (`PlaybackRunner`).
///
/// - Loading goes on while less than the variant's limit is buffered: max(8 × `maxBufferSizeBytes` /
///   BANDWIDTH, `maxBufferLengthSeconds`), at most `maxMaxBufferLengthSeconds` (hls.js `getMaxBufferLength`),
///   instead of "while one more segment fits under `--buffer`".
/// - Playback starts once the first segment is appended (or `--startup`), and resumes after a stall when the
///   next one is.
/// - The stream controller looks every `tickSeconds`, and the rule watches each load at its own interval.
public struct HLSJSPlayerProfile: Sendable, Hashable {
    /// hls.js `maxBufferLength`, default 30 s (`--buffer` sets it for `--abr hlsjs`).
    public var maxBufferLengthSeconds = 30.0
    /// hls.js `maxBufferSize`, default 60 MB (60,000,000 bytes).
    public var maxBufferSizeBytes = 60_000_000
    /// hls.js `maxMaxBufferLength`, default 600 s.
    public var maxMaxBufferLengthSeconds = 600.0
    /// hls.js's stream-controller tick (`TICK_INTERVAL`, 100 ms): how often it checks whether to load while
    /// nothing is in flight.
    public var tickSeconds = 0.1

    public init() {}
}
