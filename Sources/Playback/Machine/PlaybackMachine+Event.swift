extension PlaybackMachine {
    /// Something that happened, told to the machine by its runner: a user action, a finished or failed load, a
    /// timer, the passing of time. Events are facts; the machine decides what to do about them.
    ///
    /// An event that does not fit the current state (a `segmentLoaded` for a request that was cancelled, a
    /// `play` before `load`, anything but `load` after `ended` or `failed`) is a documented no-op: it returns no
    /// effect (except that a rotation still presents or leaves full screen) and changes nothing but the
    /// remembered preferences (viewport, quality, subtitles, audio, rate, play/pause intent), which every state
    /// keeps.
    public enum Event: Sendable, Hashable {
        /// The user opened a stream (a multivariant or a media playlist). Starts over from any state.
        case load(url: String)
        /// The playlist asked for by `Effect.loadPlaylist` with this id arrived.
        case playlistLoaded(RequestID, LoadedPlaylist)
        /// The playlist request failed; `statusCode` is the HTTP status, nil for a network error or timeout.
        case playlistLoadFailed(RequestID, statusCode: Int?)
        /// The segment asked for by `Effect.loadSegment` with this id arrived.
        case segmentLoaded(RequestID, SegmentDownload)
        /// The segment request failed; `statusCode` is the HTTP status, nil for a network error or timeout.
        case segmentLoadFailed(RequestID, statusCode: Int?)
        /// How far the segment load of this id has come, as asked for by `Effect.reportLoadProgress`. The
        /// rule may abandon the load (`cancelLoad`) and load a lower variant instead.
        case segmentProgress(RequestID, SegmentProgress)
        /// Wall-clock time passed (seconds). While playing, the position advances by `elapsed × rate`, never
        /// beyond the buffer.
        case tick(elapsedSeconds: Double)
        /// The user pressed play.
        case play
        /// The user pressed pause.
        case pause
        /// The user sought to a media time (seconds on the media-time axis, clamped to the playlist).
        case seek(toSeconds: Double)
        /// The device rotated or the player's drawing area changed size.
        case orientationChanged(Viewport)
        /// The user picked a quality in the menu (`auto` or a variant index of the ladder).
        case qualityRequested(QualityChoice)
        /// The user picked a subtitle language or turned subtitles off.
        case subtitleSelected(SubtitleChoice)
        /// The user picked an audio language.
        case audioSelected(language: String)
        /// The user changed the playback rate (1 = normal); non-positive or non-finite rates are ignored.
        case rateChanged(Double)
        /// The device went offline: loads in flight are cancelled, none start until `networkRestored`.
        case networkLost
        /// The device is online again: the machine resumes loading.
        case networkRestored
        /// A timer set by `Effect.scheduleReload` or `Effect.scheduleRetry` with this id went off.
        case timerFired(RequestID)
    }

    /// The content of a loaded playlist.
    public enum LoadedPlaylist: Sendable, Hashable {
        case multivariant(StreamDescription)
        case media(MediaTimeline)
    }

    /// A finished segment download, as measured by the runner.
    public struct SegmentDownload: Sendable, Hashable {
        public var bytes: Int
        /// Seconds from sending the request to the last byte.
        public var downloadSeconds: Double
        /// Seconds from sending the request to the first byte.
        public var timeToFirstByteSeconds: Double

        public init(bytes: Int, downloadSeconds: Double, timeToFirstByteSeconds: Double = 0) {
            self.bytes = bytes
            self.downloadSeconds = downloadSeconds
            self.timeToFirstByteSeconds = timeToFirstByteSeconds
        }
    }

    /// A segment load in progress, as measured by the runner.
    public struct SegmentProgress: Sendable, Hashable {
        /// Bytes received so far.
        public var bytesLoaded: Int
        /// Seconds since the request was sent.
        public var elapsedSeconds: Double
        /// Seconds from sending the request to the first byte; nil while no byte has arrived.
        public var timeToFirstByteSeconds: Double?

        public init(bytesLoaded: Int, elapsedSeconds: Double, timeToFirstByteSeconds: Double?) {
            self.bytesLoaded = bytesLoaded
            self.elapsedSeconds = elapsedSeconds
            self.timeToFirstByteSeconds = timeToFirstByteSeconds
        }
    }

    /// What the user chose in the subtitle menu.
    public enum SubtitleChoice: Sendable, Hashable {
        case off
        case language(String)
    }

    /// Names one request or timer the machine started, so that its answer can be matched (and a late answer
    /// to a cancelled request ignored). Numbers are handed out in order by the machine: nothing random.
    public struct RequestID: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var rawValue: Int
        public init(_ rawValue: Int) { self.rawValue = rawValue }
        public static func < (lhs: RequestID, rhs: RequestID) -> Bool { lhs.rawValue < rhs.rawValue }
        public var description: String { "#\(rawValue)" }
        /// A request not sent yet (the machine gives it a real id when it sends it).
        static let unassigned = RequestID(0)
    }
}
