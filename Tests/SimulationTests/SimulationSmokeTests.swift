import Testing
@testable import Simulation

@Suite struct SimulationSmokeTests {
    @Test func moduleLinks() {
        #expect(Bool(true))
    }
}
