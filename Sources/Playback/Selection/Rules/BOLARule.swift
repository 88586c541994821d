import Foundation
import JSON

/// BOLA basic (Spiteri, Urgaonkar, Sitaraman, INFOCOM 2016; Sabre `bola -ab`): picks the variant maximising
/// (V·(υ_m + γp) − Q) / S_m, with utility υ_m = ln(S_m/S_1), V = (Q_max − p)/(υ_M + γp) and Q the buffer
/// level. An upward move is limited by the throughput: no higher than one step above what the estimate
/// sustains, and not below the previous level when that is already above it.
public struct BOLARule: ABRRule {
    public let name = "bola"
    public var gammaP: Double
    private var lastLevel = 0

    public init(gammaP: Double = 5) {
        self.gammaP = gammaP
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        let base = input.rate(0)
        let top = input.variants.count - 1
        let utilityTop = log(input.rate(top) / base)
        let v = (input.maxBufferSeconds - input.segmentDurationSeconds) / (utilityTop + gammaP)
        var level = allowed.lowerBound
        var best = -Double.infinity
        for m in allowed {
            let score = (v * (log(input.rate(m) / base) + gammaP) - input.bufferSeconds) / input.rate(m)
            if score > best {
                best = score
                level = m
            }
        }
        // The throughput limit applied to an upward move, if any (for the reason).
        var limit: (held: Bool, estimate: Double)?
        if level > lastLevel, let estimate = input.throughputBitsPerSecond {
            let sustainable = input.highestSustainable(bitsPerSecond: estimate, allowed: allowed)
            if level <= sustainable {
            } else if lastLevel > sustainable {
                level = min(lastLevel, allowed.upperBound)
                limit = (true, estimate)
            } else {
                level = min(sustainable + 1, allowed.upperBound)
                limit = (false, estimate)
            }
        }
        lastLevel = level
        // The reason only when it is shown: formatting it costs more than the decision.
        guard input.explains else { return Selection(variantIndex: level, reason: "buffer") }
        var reason = "buffer \(fixedNumber(input.bufferSeconds, digits: 1)) s"
        if let limit {
            reason +=
                limit.held
                ? ", hold (tput \(kbps(limit.estimate)) kbps)" : ", capped by tput \(kbps(limit.estimate)) kbps"
        }
        return Selection(variantIndex: level, reason: reason)
    }
}
