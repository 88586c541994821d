import Testing
@testable import Playback

@Suite struct PlaybackSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
