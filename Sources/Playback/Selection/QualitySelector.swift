/// Picks the variant of the next segment. Applies, in order: the user's fixed choice (wins over
/// everything), the viewport cap (at most one step above what the viewport needs), then the configured rule
/// within the allowed range.
public struct QualitySelector: Sendable {
    public let kind: ABRRuleKind
    public let configuration: SelectorConfiguration
    private var rule: any ABRRule

    public init(rule: ABRRuleKind, configuration: SelectorConfiguration = .init()) {
        self.kind = rule
        self.configuration = configuration
        self.rule = QualitySelector.makeRule(rule, configuration: configuration)
    }

    /// False when the rule never reads the estimator's EWMA estimate (`ABRRule.readsThroughputEstimate`).
    public var readsThroughputEstimate: Bool { rule.readsThroughputEstimate }

    /// How often the rule watches a segment load in progress (nil: it never abandons one).
    public var loadCheckIntervalSeconds: Double? { rule.loadCheckIntervalSeconds }

    /// A segment load in progress: the rule's emergency selection when it abandons the load (never while the
    /// user's fixed choice holds), within the viewport cap; nil to let it go on.
    public mutating func checkLoad(_ input: SelectionInput, progress: LoadProgress) -> Selection? {
        let top = input.variants.count - 1
        guard top >= 0, case .auto = input.userChoice else { return nil }
        let cap = QualitySelector.viewportCap(variants: input.variants, viewport: input.viewport)
        guard var selection = rule.checkLoad(input, progress: progress, allowed: 0...cap) else { return nil }
        selection.variantIndex = min(max(selection.variantIndex, 0), cap)
        return selection
    }

    /// Tells the rule that a segment arrived.
    public mutating func segmentLoaded(_ load: LoadProgress) {
        rule.segmentLoaded(load)
    }

    public mutating func select(_ input: SelectionInput) -> Selection {
        let top = input.variants.count - 1
        guard top >= 0 else { return Selection(variantIndex: 0, reason: "no variants") }
        if case .fixed(let index) = input.userChoice {
            return Selection(variantIndex: min(max(index, 0), top), reason: "user choice")
        }
        let cap = QualitySelector.viewportCap(variants: input.variants, viewport: input.viewport)
        var selection: Selection
        if let planned = configuration.plannedBufferCapSeconds {
            var input = input
            input.maxBufferSeconds = planned
            selection = rule.choose(input, allowed: 0...cap)
        } else {
            selection = rule.choose(input, allowed: 0...cap)
        }
        selection.variantIndex = min(max(selection.variantIndex, 0), cap)
        return selection
    }

    static func makeRule(_ kind: ABRRuleKind, configuration: SelectorConfiguration) -> any ABRRule {
        switch kind {
        case .throughput:
            return ThroughputRule(
                safetyFactor: configuration.safetyFactor, insufficientBufferRule: configuration.insufficientBufferRule)
        case .bba:
            return BBARule(
                reservoirSeconds: configuration.bbaReservoirSeconds, cushionSeconds: configuration.bbaCushionSeconds)
        case .bola:
            return BOLARule(gammaP: configuration.bolaGammaP)
        case .mpc:
            return MPCRule(
                horizon: configuration.mpcHorizon, rebufferPenaltyPerSecond: configuration.rebufferPenaltyPerSecond)
        case .filterz:
            return FilterzRule(parameters: configuration.filterz)
        case .hlsjs:
            return HLSJSRule()
        }
    }
}
