import Foundation
internal import CFFmpeg

/// Converts each filtered RGBA source picture to YUV 4:2:0 once, on its own thread, and hands the result
/// to every rendition worker, which then only scales YUV (cheaper than converting RGBA once per
/// rendition). A pipeline stage between the filter and the encoders; its libav objects stay on its thread.
final class ConversionWorker: Sendable {
    private let queue: WorkQueue<RenditionWorker.Work>
    private let done = Mailbox<Bool>()

    init(width: Int, height: Int, renditions: [RenditionWorker], events: Mailbox<TrackEvent>, queueCapacity: Int = 3) {
        queue = WorkQueue(capacity: queueCapacity)
        let queue = self.queue, done = self.done
        let thread = Thread {
            Self.run(width: width, height: height, queue: queue, renditions: renditions, events: events)
            done.post(true)
        }
        thread.name = "yuv-conversion"
        thread.start()
    }

    func submit(_ work: RenditionWorker.Work) { queue.push(work) }

    /// Waits until the thread has passed `.finish` on.
    func join() { _ = done.waitAndTakeAll() }

    private static func run(
        width: Int, height: Int, queue: WorkQueue<RenditionWorker.Work>, renditions: [RenditionWorker],
        events: Mailbox<TrackEvent>
    ) {
        var converter: (scaler: Scaler, frame: MediaFrame)?
        var failed = false
        while true {
            let work = queue.pop()
            switch work {
            case .finish:
                for worker in renditions { worker.submit(work) }
                return
            case .picture(let picture, let time, let startsSegment):
                if failed { continue }
                do {
                    if converter == nil {
                        let frame = try MediaFrame()
                        try frame.allocatePicture(width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P)
                        converter = (try Scaler(from: width, height, picture.pixelFormat, to: width, height, AV_PIX_FMT_YUV420P), frame)
                    }
                    guard let (scaler, frame) = converter else { continue }
                    try frame.makeWritable()
                    try scaler.scale(picture, into: frame)
                    let yuv = Picture(yuv420From: frame, width: width, height: height)
                    for worker in renditions { worker.submit(.picture(yuv, time: time, startsSegment: startsSegment)) }
                } catch {
                    events.post(.failed(.video(0), "converting to YUV: \(error)"))
                    failed = true
                }
            }
        }
    }
}

extension Picture {
    /// Copies a YUV 4:2:0 frame's planes into a picture with tightly packed rows.
    init(yuv420From frame: MediaFrame, width: Int, height: Int) {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let sizes = [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        let planes = sizes.enumerated().map { index, size in
            // Written once, straight from the frame (no zero fill first).
            let bytes = [UInt8](unsafeUninitializedCapacity: size.0 * size.1) { buffer, count in
                frame.copyFromPlane(index, into: buffer, destinationStride: size.0, bytesPerRow: size.0, rows: size.1)
                count = size.0 * size.1
            }
            return Plane(bytes: bytes, bytesPerRow: size.0)
        }
        self.init(layout: .yuv420p, width: width, height: height, planes: planes)
    }
}
