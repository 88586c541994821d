import Testing
@testable import Packaging

@Suite struct PackagingSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
