import Testing

extension Tag {
    /// Runs a real browser (headless Chromium): skipped where it is missing, and slow.
    @Tag public static var browser: Self
    /// Takes more than a few seconds (records or encodes video).
    @Tag public static var slow: Self
}
