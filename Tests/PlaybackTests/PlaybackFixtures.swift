import Playback

/// Streams, viewports and helpers shared by the playback tests.
enum Fixtures {
    static let masterURL = "https://cdn.example/master.m3u8"

    /// Resolution and bandwidth of the test ladder, lowest first.
    static let rungs: [(width: Int, height: Int, bitsPerSecond: Int)] = [
        (640, 360, 800_000), (960, 540, 1_500_000), (1280, 720, 3_000_000), (1920, 1080, 6_000_000),
    ]

    /// A VOD playlist of `count` four-second segments for variant `variant`, sizes from its bandwidth.
    static func vod(variant: Int, count: Int = 10, segmentSeconds: Double = 4) -> MediaTimeline {
        let bytes = rungs[variant].bitsPerSecond * Int(segmentSeconds) / 8
        return MediaTimeline(
            durations: Array(repeating: segmentSeconds, count: count), targetDurationSeconds: segmentSeconds,
            sizesBytes: Array(repeating: bytes, count: count), uriPrefix: "v\(variant)/s")
    }

    /// A live window of `count` segments of 4 s, starting at media sequence `first`, with program date times.
    static func live(variant: Int, first: Int, count: Int = 6, endList: Bool = false) -> MediaTimeline {
        var timeline = MediaTimeline(
            durations: Array(repeating: 4, count: count), firstMediaSequence: first, targetDurationSeconds: 4,
            hasEndList: endList, uriPrefix: "v\(variant)/live")
        for index in timeline.segments.indices {
            timeline.segments[index].programDateTimeSeconds = 1_700_000_000 + Double(first + index) * 4
        }
        return timeline
    }

    /// The four-rung ladder; with `timelines`, each variant carries its VOD timeline (no playlist loads).
    static func ladder(timelines: Bool = false) -> StreamDescription {
        StreamDescription(
            variants: rungs.enumerated().map { index, rung in
                StreamDescription.Variant(
                    info: VariantInfo(
                        index: index, bandwidthBitsPerSecond: rung.bitsPerSecond, width: rung.width,
                        height: rung.height, codecs: ["avc1.64001f", "mp4a.40.2"]),
                    uri: "v\(index)/index.m3u8", subtitlesGroupID: "subs", timeline: timelines ? vod(variant: index) : nil)
            },
            renditions: [
                .init(kind: .subtitles, groupID: "subs", name: "English", language: "en", uri: "subs/en.m3u8", isDefault: true),
                .init(kind: .subtitles, groupID: "subs", name: "Deutsch", language: "de", uri: "subs/de.m3u8", isDefault: false),
            ])
    }

    /// Inline player in portrait: 390 × 219 points at 2× (the cap is 960×540, variant 1).
    static let portrait = Viewport(widthPixels: 780, heightPixels: 438, orientation: .portrait)
    /// Full screen in landscape: 844 × 390 points at 3× (no cap below 1080p).
    static let landscape = Viewport(widthPixels: 2532, heightPixels: 1170, orientation: .landscape)

    static func machine(viewport: Viewport? = portrait, configuration: PlaybackConfiguration = .init()) -> PlaybackMachine {
        PlaybackMachine(configuration: configuration, selector: QualitySelector(rule: .throughput), viewport: viewport)
    }

    /// A download that measured `megabitsPerSecond` for `bytes`.
    static func download(bytes: Int, megabitsPerSecond: Double) -> PlaybackMachine.SegmentDownload {
        PlaybackMachine.SegmentDownload(
            bytes: bytes, downloadSeconds: Double(bytes) * 8 / (megabitsPerSecond * 1_000_000), timeToFirstByteSeconds: 0)
    }
}

typealias Event = PlaybackMachine.Event
typealias Effect = PlaybackMachine.Effect
typealias RequestID = PlaybackMachine.RequestID

extension Effect {
    /// The effect with the selector's free-text reason removed (the wording belongs to the selection rules).
    var withoutReason: Effect {
        if case .report(.variantSwitched(let from, let to, let at, let kind, _)) = self {
            return .report(.variantSwitched(from: from, to: to, atSeconds: at, kind: kind, reason: ""))
        }
        return self
    }
}

extension PlaybackMachine {
    /// `handle(_:)` with switch reasons blanked, for comparing whole effect lists.
    mutating func send(_ event: Event) -> [Effect] { handle(event).map(\.withoutReason) }

    /// The request id of the segment load in flight.
    var segmentInFlight: SegmentRequest? {
        if case .loading(let request, _) = state.session?.segment { return request }
        return nil
    }
}

/// Shorthands for expected effects.
func id(_ number: Int) -> RequestID { RequestID(number) }

func segment(
    _ number: Int, variant: Int, sequence: Int, start: Double, duration: Double = 4, uri: String? = nil
) -> Effect {
    .loadSegment(
        .init(
            id: id(number), variantIndex: variant, mediaSequence: sequence, uri: uri ?? "v\(variant)/s\(sequence).ts",
            playlistURL: "v\(variant)/index.m3u8", byteRange: nil, startSeconds: start, durationSeconds: duration))
}

func switched(from: Int?, to: Int, at: Double, _ kind: PlaybackMetric.SwitchKind) -> Effect {
    .report(.variantSwitched(from: from, to: to, atSeconds: at, kind: kind, reason: ""))
}

func variantPlaylist(_ number: Int, variant: Int) -> Effect {
    .loadPlaylist(.init(id: id(number), url: "v\(variant)/index.m3u8", parentURL: Fixtures.masterURL, variantIndex: variant))
}
