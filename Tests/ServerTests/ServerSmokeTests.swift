import Testing
@testable import Server

@Suite struct ServerSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
