/// Tunables of the quality selector and its rules. Defaults follow the published algorithms.
public struct SelectorConfiguration: Sendable, Hashable {
    /// Throughput rule: fraction of the estimate a variant may use (Sabre, dash.js: 0.9).
    public var safetyFactor: Double
    /// Throughput rule: apply Sabre/dash.js's insufficient-buffer rule (a variant's segment must download
    /// within a shrinking fraction of the buffer).
    public var insufficientBufferRule: Bool
    /// BOLA: the γp product (Sabre `-gp`, default 5).
    public var bolaGammaP: Double
    /// BBA: below this buffer level, the lowest variant (seconds).
    public var bbaReservoirSeconds: Double
    /// BBA: buffer span over which the rate map climbs from the lowest to the highest variant (seconds).
    public var bbaCushionSeconds: Double
    /// MPC: segments planned ahead (RobustMPC: 5).
    public var mpcHorizon: Int
    /// MPC and Filterz: QoE penalty per second of rebuffering (QoE_lin: 4.3).
    public var rebufferPenaltyPerSecond: Double

    public init(
        safetyFactor: Double = 0.9, insufficientBufferRule: Bool = true, bolaGammaP: Double = 5,
        bbaReservoirSeconds: Double = 5, bbaCushionSeconds: Double = 10, mpcHorizon: Int = 5,
        rebufferPenaltyPerSecond: Double = 4.3
    ) {
        self.safetyFactor = safetyFactor
        self.insufficientBufferRule = insufficientBufferRule
        self.bolaGammaP = bolaGammaP
        self.bbaReservoirSeconds = bbaReservoirSeconds
        self.bbaCushionSeconds = bbaCushionSeconds
        self.mpcHorizon = mpcHorizon
        self.rebufferPenaltyPerSecond = rebufferPenaltyPerSecond
    }
}
