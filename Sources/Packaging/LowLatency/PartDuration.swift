/// The checks on a requested LL-HLS part duration (`--part-duration`): 0.2–1.0 s, a whole number of frames,
/// and a whole number of parts per segment, so that every segment boundary is a part boundary.
public enum PartDuration {
    /// Why a part duration cannot be used.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case outOfRange(seconds: Double)
        case notWholeFrames(seconds: Double, framesPerSecond: Double)
        case doesNotDivideSegment(seconds: Double, segmentSeconds: Double)

        public var description: String {
            switch self {
            case .outOfRange(let seconds):
                "--part-duration must be between 0.2 and 1.0 seconds, got \(seconds)"
            case .notWholeFrames(let seconds, let fps):
                "--part-duration \(seconds) s is not a whole number of frames at \(fps) fps"
            case .doesNotDivideSegment(let seconds, let segment):
                "--part-duration \(seconds) s does not divide the segment duration (\(segment) s) into whole parts"
            }
        }
    }

    public static let allowedSeconds: ClosedRange<Double> = 0.2...1.0

    /// The part duration as whole frames, or the problem with it. Without a request, a third of a second
    /// (rounded to whole frames, and to a divisor of the segment).
    public static func frames(
        requestedSeconds: Double?, frameDuration: Timestamp, framesPerSegment: Int
    ) -> Result<Int, Problem> {
        let fps = 1 / frameDuration.seconds
        guard let seconds = requestedSeconds else {
            let third = max(1, Int((fps / 3).rounded()))
            let divisor = (1...third).reversed().first { framesPerSegment % $0 == 0 } ?? 1
            return .success(divisor)
        }
        guard allowedSeconds.contains(seconds) else { return .failure(.outOfRange(seconds: seconds)) }
        let exact = seconds * fps
        let frames = Int(exact.rounded())
        guard frames >= 1, abs(exact - Double(frames)) < 1e-6 * max(1, exact) else {
            return .failure(.notWholeFrames(seconds: seconds, framesPerSecond: fps))
        }
        guard framesPerSegment % frames == 0 else {
            return .failure(
                .doesNotDivideSegment(
                    seconds: seconds, segmentSeconds: frameDuration.seconds * Double(framesPerSegment)))
        }
        return .success(frames)
    }
}
