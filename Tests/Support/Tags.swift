import Foundation
import Testing

extension Tag {
    /// Takes more than a few seconds: records or packages real media, runs a server under load, sweeps.
    @Tag public static var slow: Self
    /// Drives headless Chromium (through chromedriver).
    @Tag public static var browser: Self
    /// Talks HTTP over 127.0.0.1 to a server or client process (ours or a real one: nginx, curl, ffmpeg).
    @Tag public static var network: Self
}

/// Which tests this run includes: `make test` runs everything; `make test-fast` sets
/// `FILTERZ_TEST_SCOPE=fast`, and every test tagged slow, browser or network carries `.fullRunOnly`, so it is
/// reported as skipped with that reason instead of running.
public enum TestScope {
    public static var isFast: Bool { ProcessInfo.processInfo.environment["FILTERZ_TEST_SCOPE"] == "fast" }
}

extension Trait where Self == ConditionTrait {
    /// Skipped by `make test-fast` (see `TestScope`); use it with one of the tags `.slow`, `.browser`, `.network`.
    public static var fullRunOnly: Self {
        .disabled(if: TestScope.isFast, "slow, browser or network test: skipped by make test-fast")
    }
}
