/// The Filterz default (placeholder until tuned): RobustMPC's look-ahead.
public struct FilterzRule: ABRRule {
    public let name = "filterz"
    private var mpc: MPCRule

    public init(configuration: SelectorConfiguration = .init()) {
        mpc = MPCRule(horizon: configuration.mpcHorizon, rebufferPenaltyPerSecond: configuration.rebufferPenaltyPerSecond)
    }

    public mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection {
        mpc.choose(input, allowed: allowed)
    }
}
