import RealClients
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs only where headless Chromium can (`HeadlessChromium.unavailableReason` is nil); skipped, saying why,
    /// elsewhere.
    public static var needsHeadlessChromium: Self {
        .enabled(
            if: HeadlessChromium.unavailableReason == nil,
            Comment(rawValue: HeadlessChromium.unavailableReason ?? ""))
    }
}
