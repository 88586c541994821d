import FilterKit

/// A few frame buffers that a filtering thread renders into in turn, instead of a fresh 3.7 MB array per
/// 720p frame (page faults and a copy). A buffer comes round again after `count` frames; if someone still
/// holds it then, copy-on-write gives the renderer a fresh one, so a small ring costs speed, never
/// correctness. Confined to the thread that renders (the frames it returns are values, free to travel).
final class FrameRing: @unchecked Sendable {
    private var frames: [Frame]
    private var next = 0

    init(count: Int, width: Int, height: Int) {
        frames = Array(repeating: Frame(rgbaWidth: width, height: height), count: max(1, count))
    }

    /// `picture` filtered by `renderer` into the next buffer of the ring.
    func render(_ picture: Frame, with renderer: FilterRenderer) -> Frame {
        renderer.renderFrame(picture, into: &frames[next])
        defer { next = (next + 1) % frames.count }
        return frames[next]
    }
}
