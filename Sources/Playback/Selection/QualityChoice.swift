/// What the user asked for in the quality menu: automatic selection, or one variant that wins over every rule.
public enum QualityChoice: Sendable, Hashable {
    case auto
    case fixed(variantIndex: Int)
}
