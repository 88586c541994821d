import Foundation

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
        var reason = "buffer \(format1(input.bufferSeconds)) s"
        if level > lastLevel, let estimate = input.throughputBitsPerSecond {
            let sustainable = input.highestSustainable(bitsPerSecond: estimate, allowed: allowed)
            if level <= sustainable {
            } else if lastLevel > sustainable {
                level = min(lastLevel, allowed.upperBound)
                reason += ", hold (tput \(kbps(estimate)) kbps)"
            } else {
                level = min(sustainable + 1, allowed.upperBound)
                reason += ", capped by tput \(kbps(estimate)) kbps"
            }
        }
        lastLevel = level
        return Selection(variantIndex: level, reason: reason)
    }
}

/// One decimal, for reasons.
func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
}
