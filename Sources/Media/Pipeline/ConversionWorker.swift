import Foundation

/// Converts each filtered RGBA source picture to YUV 4:2:0 once (`YUV420Conversion`), on its own thread,
/// and hands the result to every rendition worker, which then only scales YUV (cheaper than converting
/// RGBA once per rendition). A pipeline stage between the filter and the encoders.
final class ConversionWorker: Sendable {
    private let queue: WorkQueue<RenditionWorker.Work>
    private let done = Mailbox<Bool>()

    init(renditions: [RenditionWorker], queueCapacity: Int = 3) {
        queue = WorkQueue(capacity: queueCapacity)
        let queue = self.queue, done = self.done
        let thread = Thread {
            Self.run(queue: queue, renditions: renditions)
            done.post(true)
        }
        thread.name = "yuv-conversion"
        thread.start()
    }

    func submit(_ work: RenditionWorker.Work) { queue.push(work) }

    /// Waits until the thread has passed `.finish` on.
    func join() { _ = done.waitAndTakeAll() }

    private static func run(queue: WorkQueue<RenditionWorker.Work>, renditions: [RenditionWorker]) {
        while true {
            let work = queue.pop()
            switch work {
            case .finish:
                for worker in renditions { worker.submit(work) }
                return
            case .picture(let picture, let time, let startsSegment):
                let yuv = picture.layout == .yuv420p ? picture : YUV420Conversion.yuv420(from: picture)
                for worker in renditions { worker.submit(.picture(yuv, time: time, startsSegment: startsSegment)) }
            }
        }
    }
}
