import Testing

extension Tag {
    /// Drives headless Chromium (slow; needs `make deps`).
    @Tag static var browser: Self
}
