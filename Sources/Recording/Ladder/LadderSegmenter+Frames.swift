import FilterKit
import Packaging

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
        try appendChecked(frame, at: time)
    }
}
