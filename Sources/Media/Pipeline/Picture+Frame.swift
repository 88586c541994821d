import FilterKit
import Packaging

extension Picture {
    /// Shares a FilterKit frame's planes (no pixel copy: the arrays are copy-on-write).
    init(_ frame: Frame) {
        self.init(
            layout: frame.format == .rgba ? .rgba : .yuv420p, width: frame.width, height: frame.height,
            planes: frame.planes.map { Plane(bytes: $0.bytes, bytesPerRow: $0.bytesPerRow) })
    }
}

extension LadderSegmenter {
    /// Adds one filtered source frame (RGBA at the configured source size) at presentation time `time`.
    public func append(_ frame: Frame, at time: Timestamp) throws(SegmenterError) {
        guard frame.width == configuration.sourceWidth, frame.height == configuration.sourceHeight,
            frame.format == .rgba
        else {
            throw .configuration(
                "frame is \(frame.width)x\(frame.height) \(frame.format), expected \(configuration.sourceWidth)x\(configuration.sourceHeight) rgba"
            )
        }
        try append(Picture(frame), at: time)
    }
}
