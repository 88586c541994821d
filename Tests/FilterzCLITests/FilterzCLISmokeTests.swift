import Testing
@testable import FilterzCLI

@Suite struct FilterzCLISmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
