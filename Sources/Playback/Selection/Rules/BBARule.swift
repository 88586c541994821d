import JSON

/// Buffer-based rule BBA-0 (Huang et al., SIGCOMM 2014): below the reservoir the lowest variant; above
/// reservoir + cushion the highest; in between the rate map climbs linearly. The level only changes when the
/// map crosses the next rate up (then the highest rate below the map) or the next rate down (then the lowest
/// rate above the map), which keeps it from oscillating.
public struct BBARule: ABRRule {
    public let name = "bba"
    public var reservoirSeconds: Double
    public var cushionSeconds: Double
    private var lastLevel: Int?

    public init(reservoirSeconds: Double = 5, cushionSeconds: Double = 10) {
        self.reservoirSeconds = reservoirSeconds
        self.cushionSeconds = cushionSeconds
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        let low = input.rate(allowed.lowerBound)
        let high = input.rate(allowed.upperBound)
        let buffer = input.bufferSeconds
        let mapped: Double
        if buffer <= reservoirSeconds {
            mapped = low
        } else if buffer >= reservoirSeconds + cushionSeconds {
            mapped = high
        } else {
            mapped = low + (high - low) * (buffer - reservoirSeconds) / cushionSeconds
        }
        let previous = min(max(lastLevel ?? allowed.lowerBound, allowed.lowerBound), allowed.upperBound)
        var level = previous
        let up = min(previous + 1, allowed.upperBound)
        let down = max(previous - 1, allowed.lowerBound)
        if mapped >= high {
            level = allowed.upperBound
        } else if mapped <= low {
            level = allowed.lowerBound
        } else if up > previous, mapped >= input.rate(up) {
            level = allowed.filter { input.rate($0) < mapped }.last ?? previous
        } else if down < previous, mapped <= input.rate(down) {
            level = allowed.first { input.rate($0) > mapped } ?? previous
        }
        lastLevel = level
        // The reason only when it is shown: formatting it costs more than the decision.
        guard input.explains else { return Selection(variantIndex: level, reason: "buffer map") }
        return Selection(
            variantIndex: level, reason: "buffer \(fixedNumber(buffer, digits: 1)) s -> map \(kbps(mapped)) kbps")
    }
}
