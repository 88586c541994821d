import FilterKit
import Foundation

/// Converts each filtered RGBA source picture to YUV 4:2:0 once (`YUV420Conversion`), on its own thread,
/// and hands the result to every rendition worker, which then only scales YUV (cheaper than converting
/// RGBA once per rendition). A pipeline stage between the filter and the encoders.
///
/// It converts into a ring of pictures rather than a fresh 1.4 MB (720p) per frame: by the time a slot comes
/// round again every rendition has encoded and dropped it (their queues hold at most `renditionQueueCapacity`
/// pictures; the ring has three more: the one each is encoding, the one being converted, a spare), so the
/// buffers are written in place; if one is still held,
/// copy-on-write gives it a fresh buffer instead, so a short ring costs speed, never correctness.
final class ConversionWorker: Sendable {
    private let queue: WorkQueue<RenditionWorker.Work>
    private let done = Mailbox<Bool>()

    init(renditions: [RenditionWorker], renditionQueueCapacity: Int, queueCapacity: Int = 3) {
        queue = WorkQueue(capacity: queueCapacity)
        let queue = self.queue, done = self.done
        let ringSize = renditionQueueCapacity + 3
        let thread = Thread {
            Self.run(queue: queue, renditions: renditions, ringSize: ringSize)
            done.post(true)
        }
        thread.name = "yuv-conversion"
        thread.start()
    }

    func submit(_ work: RenditionWorker.Work) { queue.push(work) }

    /// Waits until the thread has passed `.finish` on.
    func join() { _ = done.waitAndTakeAll() }

    private static func run(queue: WorkQueue<RenditionWorker.Work>, renditions: [RenditionWorker], ringSize: Int) {
        var ring = [Frame](repeating: Frame(yuv420Width: 0, height: 0), count: ringSize)
        var next = 0
        while true {
            let work = queue.pop()
            switch work {
            case .finish:
                for worker in renditions { worker.submit(work) }
                return
            case .picture(let picture, let time, let startsSegment):
                var yuv = picture
                if picture.format == .rgba {
                    YUV420Conversion.convert(picture, into: &ring[next])
                    yuv = ring[next]
                    next = (next + 1) % ring.count
                }
                for worker in renditions { worker.submit(.picture(yuv, time: time, startsSegment: startsSegment)) }
            }
        }
    }
}
