import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import Inspect

/// `inspect -` reads standard input only up to the playlist size limit: an endless input is refused with one
/// line once it passes the limit, never read whole.
@Suite struct StandardInputLimitTests {
    @Test func standardInputIsAskedForOneByteMoreThanTheLimitAndRefusedPastIt() throws {
        var asked: [Int] = []
        let endless = { (limit: Int) -> [UInt8] in
            asked.append(limit)
            return Array(repeating: UInt8(ascii: "#"), count: limit)
        }
        #expect(throws: CLIError.input("standard input: larger than the limit of 10 bytes")) {
            try PlaylistFile(maximumBytes: 10).load("-", readStandardInput: endless)
        }
        #expect(asked == [11])
        let exact = try PlaylistFile(maximumBytes: 10).load("-") { Array(repeating: 35, count: min($0, 10)) }
        #expect(exact.count == 10)
    }

    @Test func inspectOfAnEndlessStandardInputStopsAtTheLimit() throws {
        let filterz = try #require(FilterzChild.binary, "build filterz first")
        let run = try ExternalTool.run("sh", ["-c", "exec '\(filterz)' inspect - < /dev/zero"], timeoutSeconds: 60)
        #expect(run.exitCode == 2, "\(run.stderr)")
        #expect(run.stderr == "filterz inspect: error: standard input: larger than the limit of 67108864 bytes\n")
    }
}
