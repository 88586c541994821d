import FilterKit
import Foundation
import HLS
import Media
import Packaging
import Platform

/// Turns filtered source pictures (and microphone audio) into a complete HLS ladder on disk: one
/// worker thread per video rendition (scale → libx264 → segments), AAC audio, WebVTT subtitles in
/// Korean and English. It writes segments and parts, never a playlist: their records go to its
/// `PlaylistPublisher`, which writes every playlist.
///
///     let segmenter = try LadderSegmenter(configuration)
///     for (index, frame) in frames.enumerated() {
///         try segmenter.append(frame, at: Timestamp(Int64(index), timescale: 30))
///     }
///     let summary = try segmenter.finish(endTime: Timestamp(Int64(frames.count), timescale: 30))
///
/// Output layout: `master.m3u8`; `<rendition>/index.m3u8`, `<rendition>/iframes.m3u8` and segments per
/// rendition (`720p/seg_00000.ts`, or `init.mp4` + `.m4s`); `audio/…`; `subs/<lang>/index.m3u8` + `.vtt`.
/// In a live mode the playlists are rewritten after every segment that all tracks have finished (with LL-HLS
/// parts, after every part).
/// Confined to the thread that created it.
public final class LadderSegmenter {
    /// Every timestamp written into a container is shifted by this much, so that decoding times (which
    /// B-frames and AAC priming put before zero) stay positive and audio and video share one timeline.
    public static let muxOffset = Timestamp.seconds(10)

    public let configuration: Configuration
    private let events = Mailbox<TrackEvent>()
    private var workers: [RenditionWorker] = []
    /// Converts each source picture to YUV once before the renditions scale it.
    private var converter: ConversionWorker?
    private var renditionFolders: [String] = []
    private var frameCutter: SegmentCutter
    private var audio: (encoder: AudioEncoder, segmenter: TrackSegmenter)?
    /// Every playlist: the tracks' records go to it, and it decides what is published when.
    let publisher: PlaylistPublisher
    var subtitleSegmentStart: (index: Int, time: Timestamp)?
    var firstVideoTime: Timestamp?
    private var failure: String?
    var isClosed = false
    /// With parts: publishes as soon as a track reports (state shared with the feeding thread under `lock`).
    private var pump: EventPump?
    private let lock = NSRecursiveLock()

    public init(_ configuration: Configuration) throws(SegmenterError) {
        guard !configuration.ladder.renditions.isEmpty else { throw .configuration("the ladder has no renditions") }
        self.configuration = configuration
        let exactSegment = configuration.frameDuration * Int64(configuration.framesPerSegment)
        frameCutter = SegmentCutter(targetDuration: exactSegment)
        let root = configuration.outputFolder
        do {
            try AtomicFile.makeFolder(root)
            for rung in configuration.ladder.renditions {
                let folder = root + "/" + rung.name
                try AtomicFile.makeFolder(folder)
                renditionFolders.append(folder)
            }
            if configuration.captions != nil {
                for language in RecordingCaptions.languages {
                    try AtomicFile.makeFolder(root + "/subs/" + language.tag)
                }
            }
            if configuration.audio != nil { try AtomicFile.makeFolder(root + "/audio") }
        } catch {
            throw .output(error.description)
        }
        let origin = configuration.wallClockOrigin
        let partDuration = configuration.lowLatency?.partDuration
        if partDuration != nil && (configuration.container != .fragmentedMP4 || configuration.mode == .vod) {
            throw .configuration("low-latency parts need a live fMP4 recording")
        }
        var lowLatencyTracks: [PlaylistPublisher.LowLatencyState.Track] = []
        if let format = configuration.audio {
            do {
                let encoder = try AudioEncoder(sampleRate: format.sampleRate, channels: format.channels)
                let muxer = try SegmentMuxer(container: configuration.container, encoder: encoder.codec)
                let events = self.events
                let segmenter = try TrackSegmenter(
                    track: .audio, muxer: muxer, targetDuration: exactSegment,
                    // With parts the grid starts at the first (primed) packet, so every part stays within
                    // one AAC frame of the part duration.
                    gridOrigin: partDuration == nil ? .zero : nil,
                    folder: root + "/audio", timeBase: (1, Int32(format.sampleRate)),
                    muxOffset: Self.muxOffset.converted(to: Int32(format.sampleRate)).value,
                    programDateTime: { time in origin.map { $0 + time.converted(to: 1000).value } },
                    encryptSegment: configuration.encryptSegment,
                    partCutter: partDuration.map { PartCutter(partDuration: $0) },
                    report: { events.post($0) })
                audio = (encoder, segmenter)
                if let partDuration {
                    // AAC frames do not fall on the part grid: a part may run up to one frame past it.
                    lowLatencyTracks.append(
                        .init(
                            id: .audio, playlistURI: "audio/index.m3u8", name: "audio",
                            partTarget: partDuration
                                + Timestamp(Int64(encoder.frameSize), timescale: Int32(format.sampleRate))))
                }
            } catch let error as FFmpegError {
                throw .libav(error)
            } catch {
                throw .output("\(error)")
            }
        }
        for (index, rung) in configuration.ladder.renditions.enumerated() {
            let settings = VideoEncoder.Settings(
                width: rung.width, height: rung.height,
                frameRate: Self.frameRate(configuration.frameDuration),
                timescale: configuration.videoTimescale, bitsPerSecond: rung.bitsPerSecond,
                keyframeInterval: configuration.framesPerSegment,
                globalHeader: configuration.container == .fragmentedMP4, preset: configuration.x264Preset,
                threads: configuration.encoderThreads, zeroLatency: partDuration != nil)
            let setup = RenditionWorker.Setup(
                index: index, rung: rung, encoder: settings,
                container: configuration.container, folder: renditionFolders[index], segmentDuration: exactSegment,
                muxOffset: Self.muxOffset.converted(to: configuration.videoTimescale).value, wallClockOrigin: origin,
                encryptSegment: configuration.encryptSegment,
                partDuration: partDuration,
                queueCapacity: partDuration == nil
                    ? RenditionWorker.queueCapacity : RenditionWorker.lowLatencyQueueCapacity)
            workers.append(RenditionWorker(setup, events: events))
            if let partDuration {
                lowLatencyTracks.append(
                    .init(
                        id: .video(index), playlistURI: rung.name + "/index.m3u8", name: rung.name,
                        partTarget: partDuration))
            }
        }
        let lowLatency = try configuration.lowLatency.map { settings throws(SegmenterError) in
            try PlaylistPublisher.LowLatencyState(
                tracks: lowLatencyTracks,
                partsPerSegment: max(1, Int((exactSegment.seconds / settings.partDuration.seconds).rounded())),
                segmentExtension: configuration.container.segmentExtension, timingLogPath: settings.timingLogPath,
                programDateTime: { time in origin.map { $0 + time.converted(to: 1000).value } })
        }
        publisher = PlaylistPublisher(
            PlaylistPublisher.Layout(
                root: root,
                videos: configuration.ladder.renditions.map {
                    .init(name: $0.name, width: $0.width, height: $0.height)
                },
                frameRate: 1 / configuration.frameDuration.seconds, audioChannels: configuration.audio?.channels,
                hasSubtitles: configuration.captions != nil,
                initSegmentURI: configuration.container == .fragmentedMP4 ? TrackSegmenter.initSegmentName : nil,
                encryption: configuration.encryption),
            builder: PlaylistBuilder(mode: configuration.mode, nominalSegmentDuration: exactSegment),
            lowLatency: lowLatency)
        converter = ConversionWorker(
            renditions: workers,
            renditionQueueCapacity: partDuration == nil
                ? RenditionWorker.queueCapacity : RenditionWorker.lowLatencyQueueCapacity)
        if lowLatency != nil {
            let reference = WeakReference(self)
            pump = EventPump(events) { reference.object?.collectEventsOnPump() }
        }
    }

    deinit {
        if !isClosed { abandon() }
    }

    static func frameRate(_ frameDuration: Timestamp) -> (numerator: Int32, denominator: Int32) {
        (frameDuration.timescale, Int32(clamping: frameDuration.value))
    }

    // MARK: Feeding

    /// Adds one filtered source frame (RGBA at the source size, already checked) at presentation time `time`.
    func appendChecked(_ picture: Frame, at time: Timestamp) throws(SegmenterError) {
        lock.lock()
        do {
            try checkHealth()
            if firstVideoTime == nil { firstVideoTime = time }
        } catch {
            lock.unlock()
            throw error
        }
        var startsSegment = false
        if case .startSegment(let index) = frameCutter.handle(presentationTime: time, isKeyframe: true) {
            startsSegment = true
            do {
                try closeSubtitleSegment(endingAt: time)
            } catch {
                lock.unlock()
                throw error
            }
            subtitleSegmentStart = (index, time)
        }
        lock.unlock()
        let ticks = time.converted(to: configuration.videoTimescale).value
        converter?.submit(.picture(picture, time: ticks, startsSegment: startsSegment))
        try collectEvents()
    }

    /// Adds interleaved float samples (−1…1) of the microphone, in the configured format.
    public func append(audio samples: [Float]) throws(SegmenterError) {
        guard let audio else { return }
        do {
            try audio.encoder.encode(interleaved: samples) { packet in try audio.segmenter.handle(packet) }
        } catch let error as FFmpegError {
            throw .libav(error)
        } catch {
            throw .output("\(error)")
        }
    }

    /// Ends the recording at `endTime` (the end of the last frame): flushes every encoder, writes the last
    /// segments and the final playlists (with EXT-X-ENDLIST).
    public func finish(endTime: Timestamp) throws(SegmenterError) -> Summary {
        lock.lock()
        guard !isClosed else {
            lock.unlock()
            throw .configuration("the segmenter was already closed")
        }
        isClosed = true
        lock.unlock()
        let ticks = endTime.converted(to: configuration.videoTimescale).value
        converter?.submit(.finish(endTime: ticks))
        var audioError: SegmenterError?
        if let audio {
            do {
                try audio.encoder.finish { packet in try audio.segmenter.handle(packet) }
                try audio.segmenter.finish(endTime: nil)
            } catch let error as FFmpegError {
                audioError = .libav(error)
            } catch {
                audioError = .output("\(error)")
            }
        }
        converter?.join()
        for worker in workers { worker.join() }
        pump?.stop()
        try closeSubtitleSegment(endingAt: endTime)
        try collectEvents()
        if let failure { throw .rendition(failure) }
        if let audioError { throw audioError }
        let presentation = try publisher.publish(finished: true)
        return Summary(
            segmentCount: publisher.completeSegmentCount, duration: endTime - (firstVideoTime ?? .zero),
            masterPlaylistPath: configuration.outputFolder + "/master.m3u8",
            bandwidths: presentation.map { publisher.builder.multivariantPlaylist($0).variants.map(\.bandwidth) } ?? [])
    }

    /// Stops the workers without writing final playlists (after a failure). Files already written stay;
    /// no master playlist claims the presentation is complete.
    public func abandon() {
        lock.lock()
        let wasClosed = isClosed
        isClosed = true
        lock.unlock()
        guard !wasClosed else { return }
        converter?.submit(.finish(endTime: 0))
        converter?.join()
        for worker in workers { worker.join() }
        pump?.stop()
    }

    /// The pump thread's turn: what the tracks reported, published (a failure is kept for the feeding thread).
    private func collectEventsOnPump() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed, failure == nil else { return }
        do {
            try collectEvents()
        } catch {
            if failure == nil { failure = error.description }
        }
    }

    // MARK: Events and publishing

    private func checkHealth() throws(SegmenterError) {
        if let failure { throw .rendition(failure) }
        guard !isClosed else { throw .configuration("the segmenter was already closed") }
    }

    /// Hands what the tracks reported to the publisher, which publishes what changed.
    private func collectEvents() throws(SegmenterError) {
        lock.lock()
        defer { lock.unlock() }
        for event in events.takeAll() {
            switch event {
            case .codecs(let track, let string): publisher.setCodecs(string, of: track)
            case .segment(let track, let index, let record): publisher.add(record, track: track, index: index)
            case .part(let track, let index, let part, let record, let timing):
                publisher.addPart(track: track, segment: index, part: part, record, timing)
            case .finished: break
            case .failed(_, let message): if failure == nil { failure = message }
            }
        }
        if let failure { throw .rendition(failure) }
        try publisher.publish(finished: false)
    }
}
