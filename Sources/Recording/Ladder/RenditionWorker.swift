import FilterKit
import Foundation
import Media
import Packaging

/// Encodes one video rendition on its own thread: scale the filtered source picture (YUV 4:2:0) to the
/// rendition's size, encode with libx264, cut and mux segments. Every libav object is created and used on that
/// thread only; pictures come in and events go out as values.
final class RenditionWorker: Sendable {
    /// Work for the thread.
    enum Work: Sendable {
        /// A source picture at presentation time `time` (encoder ticks); `startsSegment` forces an IDR.
        case picture(Frame, time: Int64, startsSegment: Bool)
        /// No more pictures; the recording ends at `endTime` (encoder ticks).
        case finish(endTime: Int64)
    }

    /// What the thread needs to build its pipeline.
    struct Setup: Sendable {
        var index: Int
        var rung: LadderRung
        var encoder: VideoEncoder.Settings
        var container: ContainerFormat
        var folder: String
        var segmentDuration: Timestamp
        var muxOffset: Int64
        /// Wall-clock milliseconds of recording time zero, for EXT-X-PROGRAM-DATE-TIME (nil: none).
        var wallClockOrigin: Int64?
        /// Encrypts each finished segment (index, bytes) before it is written; nil leaves segments clear.
        var encryptSegment: SegmentEncryptor?
        /// LL-HLS part length, or nil for whole segments only.
        var partDuration: Timestamp?
        /// Pictures that may wait for this encoder (`queueCapacity`, or fewer when latency matters).
        var queueCapacity: Int = RenditionWorker.queueCapacity
    }

    private let queue: WorkQueue<Work>
    private let done = Mailbox<Bool>()

    /// Pictures that may wait for the encoder: a keyframe costs libx264 more than other frames, and meanwhile
    /// the filter and the other renditions go on instead of leaving a core idle (8 YUV pictures at 720p are
    /// 11 MB, shared by every rendition).
    static let queueCapacity = 8
    /// With LL-HLS parts: a picture waiting in the queue is latency, so at most a tenth of a second's worth.
    static let lowLatencyQueueCapacity = 3

    init(_ setup: Setup, events: Mailbox<TrackEvent>) {
        queue = WorkQueue(capacity: setup.queueCapacity)
        let queue = self.queue, done = self.done
        let thread = Thread {
            Self.run(setup, queue: queue, events: events)
            done.post(true)
        }
        thread.name = "rendition-\(setup.rung.name)"
        thread.stackSize = 8 << 20
        thread.start()
    }

    func submit(_ work: Work) { queue.push(work) }

    /// Waits until the thread has finished (after `.finish` was submitted).
    func join() { _ = done.waitAndTakeAll() }

    private static func run(_ setup: Setup, queue: WorkQueue<Work>, events: Mailbox<TrackEvent>) {
        let track = TrackID.video(setup.index)
        var failed = false
        var pipeline: Pipeline?
        do {
            pipeline = try Pipeline(setup, events: events)
        } catch {
            events.post(.failed(track, "\(setup.rung.name): \(error)"))
            failed = true
        }
        while true {
            let work = queue.pop()
            if failed {
                if case .finish = work { return }
                continue  // keep draining so the producer never blocks
            }
            do {
                switch work {
                case .picture(let picture, let time, let startsSegment):
                    try pipeline?.encode(picture, time: time, startsSegment: startsSegment)
                case .finish(let endTime):
                    try pipeline?.finish(endTime: endTime)
                    return
                }
            } catch {
                events.post(.failed(track, "\(setup.rung.name): \(error)"))
                failed = true
                if case .finish = work { return }
            }
        }
    }

    /// The libav side of one rendition (thread-confined).
    private final class Pipeline {
        let encoder: VideoEncoder
        let segmenter: TrackSegmenter
        let track: TrackID
        let events: Mailbox<TrackEvent>
        var codecsReported = false

        init(_ setup: Setup, events: Mailbox<TrackEvent>) throws {
            track = .video(setup.index)
            self.events = events
            encoder = try VideoEncoder(setup.encoder)
            let muxer = try SegmentMuxer(container: setup.container, encoder: encoder.codec)
            let origin = setup.wallClockOrigin
            segmenter = try TrackSegmenter(
                track: track, muxer: muxer, targetDuration: setup.segmentDuration, gridOrigin: nil,
                folder: setup.folder, timeBase: encoder.timeBase, muxOffset: setup.muxOffset,
                programDateTime: { time in origin.map { $0 + time.converted(to: 1000).value } },
                encryptSegment: setup.encryptSegment,
                partCutter: setup.partDuration.map { PartCutter(partDuration: $0) },
                report: { events.post($0) })
        }

        func encode(_ picture: Frame, time: Int64, startsSegment: Bool) throws {
            try encoder.encode(picture, time: time, forceKeyframe: startsSegment) { packet in
                try segmenter.handle(packet)
                reportCodecs()
            }
        }

        func finish(endTime: Int64) throws {
            try encoder.finish { packet in try segmenter.handle(packet) }
            reportCodecs()
            try segmenter.finish(endTime: segmenter.time(endTime))
        }

        private func reportCodecs() {
            guard !codecsReported, let keyframe = segmenter.firstKeyframe,
                let codecs = encoder.codecString(firstKeyframe: keyframe)
            else { return }
            codecsReported = true
            events.post(.codecs(track, codecs))
        }
    }
}
