/// The rules `QualitySelector` can run, by the name used on the command line (`--abr`).
public enum ABRRuleKind: String, Sendable, CaseIterable {
    /// Highest variant under a safety fraction of the throughput estimate (hls.js/ExoPlayer-like).
    case throughput
    /// Buffer-based: a linear map from buffer level to rate between a reservoir and a cushion (Huang et al. 2014).
    case bba
    /// Buffer-based utility maximisation (Spiteri et al. 2016), BOLA basic.
    case bola
    /// RobustMPC: look-ahead over the harmonic-mean throughput discounted by its recent error (Yin et al. 2015).
    case mpc
    /// The Filterz default, a hybrid of the above.
    case filterz
    /// A model of hls.js 1.6 with its default configuration: its start level, its bandwidth factors and its
    /// emergency abandonment of a segment that would not arrive before the buffer runs out (`HLSJSRule`).
    case hlsjs
}
