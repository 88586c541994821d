import Testing
@testable import Media

@Suite struct MediaSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
