import JSON
import Playback

/// The levels a session's viewer actions leave the player at each moment, so that a session with actions is
/// compared with the best it could have done under the same constraints: in Auto, the levels up to the cap of
/// the viewport in effect (a rotation changes it); a manual pick fixes the level from its moment until the next
/// pick (Auto included), as the player's selector does (a pick is not capped by the viewport).
///
/// Seeks are not modelled (the optimum plays every segment once, in order): `init` throws for a schedule with
/// one. Subtitles change nothing.
public struct ViewerConstraints: Sendable, Hashable {
    /// From `fromMilliseconds` (virtual time of the session) on, a request may use `levels`.
    public struct Step: Sendable, Hashable {
        public var fromMilliseconds: Double
        public var levels: ClosedRange<Int>
    }

    /// In time order; the first from 0.
    public private(set) var steps: [Step]

    /// The constraints of `actions` (in time order) on `manifest`, for a player whose viewport is `viewport` at
    /// the start.
    public init(actions: [ViewerAction], manifest: StreamManifest, viewport: Viewport?) throws(SimulationError) {
        let variants = manifest.variants
        let top = manifest.levelCount - 1
        var viewport = viewport
        var pick: Int?
        func levels() -> ClosedRange<Int> {
            if let pick { return pick...pick }
            return 0...QualitySelector.viewportCap(variants: variants, viewport: viewport)
        }
        steps = [Step(fromMilliseconds: 0, levels: levels())]
        for action in actions {
            switch action.kind {
            case .rotate(let orientation, let area):
                viewport = ViewerAction.playerArea(area, orientation)
            case .select(.auto, _):
                pick = nil
            case .select(.fixed(let index), _):
                guard (0...top).contains(index) else { continue }  // ignored by the player, too
                pick = index
            case .seek:
                throw .invalidInput(
                    what: "seek at \(plainNumber(action.timeSeconds)) s",
                    reason: "the optimum does not model seeks (it plays every segment once, in order)")
            case .subtitles:
                continue
            }
            let from = action.timeSeconds * 1000
            if steps[steps.count - 1].fromMilliseconds == from { steps.removeLast() }
            steps.append(Step(fromMilliseconds: from, levels: levels()))
        }
    }

    /// The levels a request made at `milliseconds` may use.
    public func levels(atMilliseconds milliseconds: Double) -> ClosedRange<Int> {
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if steps[middle].fromMilliseconds <= milliseconds { low = middle } else { high = middle - 1 }
        }
        return steps[low].levels
    }
}
