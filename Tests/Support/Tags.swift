import Foundation
import Testing

/// Which tests this run includes: `make test` runs everything; `make test-fast` sets `FILTERZ_TEST_SCOPE=fast`,
/// and leaves out exactly the tests marked with one of the scope traits below (reported as skipped, with the
/// scope). A test with none of them is fast: it runs in both.
public enum TestScope {
    public static var isFast: Bool { ProcessInfo.processInfo.environment["FILTERZ_TEST_SCOPE"] == "fast" }
}

extension Trait where Self == ConditionTrait {
    /// Takes more than a few seconds: records or packages real media, runs a server under load, sweeps.
    public static var slow: Self { fullRunOnly("slow") }
    /// Drives headless Chromium (through chromedriver).
    public static var browser: Self { fullRunOnly("browser") }
    /// Talks HTTP over 127.0.0.1 to a server or client process (ours or a real one: nginx, curl, ffmpeg).
    public static var network: Self { fullRunOnly("network") }

    private static func fullRunOnly(_ scope: String) -> Self {
        .disabled(if: TestScope.isFast, "\(scope) test: skipped by make test-fast")
    }
}
