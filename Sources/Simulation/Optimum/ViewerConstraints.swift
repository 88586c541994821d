import JSON
import Playback

/// The levels a session's viewer actions leave the player at each moment, so that a session with actions is
/// compared with the best it could have done under the same constraints: in Auto, the levels up to the cap of
/// the viewport in effect at the request (a rotation changes it); a manual pick fixes the level from its moment
/// until the next pick (Auto included), as the player's selector does (a pick is not capped by the viewport),
/// for every segment requested then and every segment played then (the player flushes what it had buffered
/// at other levels).
///
/// Seeks are not modelled (the optimum plays every segment once, in order): `init` throws for a schedule with
/// one. Subtitles change nothing.
public struct ViewerConstraints: Sendable, Hashable {
    /// From `fromMilliseconds` (virtual time of the session) on: the manual pick in effect (nil in Auto) and the
    /// Auto cap of the viewport in effect.
    public struct Step: Sendable, Hashable {
        public var fromMilliseconds: Double
        public var pick: Int?
        public var cap: Int
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
        func step(_ from: Double) -> Step {
            Step(
                fromMilliseconds: from, pick: pick,
                cap: QualitySelector.viewportCap(variants: variants, viewport: viewport))
        }
        steps = [step(0)]
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
            steps.append(step(from))
        }
    }

    /// The levels a segment requested at `requested` that starts playing at `playing` may use: the pick in
    /// effect when it plays (a pick flushes what was buffered at other levels), else the pick in effect when it
    /// was requested, else the levels up to the Auto cap of the viewport at the request.
    public func levels(requestedAt requested: Double, playingFrom playing: Double) -> ClosedRange<Int> {
        let atRequest = step(at: requested)
        if let pick = step(at: max(playing, requested)).pick ?? atRequest.pick { return pick...pick }
        return 0...atRequest.cap
    }

    /// The levels a request made at `milliseconds` may use (the segment playing at once).
    public func levels(atMilliseconds milliseconds: Double) -> ClosedRange<Int> {
        levels(requestedAt: milliseconds, playingFrom: milliseconds)
    }

    private func step(at milliseconds: Double) -> Step {
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if steps[middle].fromMilliseconds <= milliseconds { low = middle } else { high = middle - 1 }
        }
        return steps[low]
    }
}
