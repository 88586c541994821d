import Testing
@testable import FilterKit

@Suite struct FilterKitSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
