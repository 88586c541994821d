import FilterzTestSupport
import Testing

/// What only `filterz-full`'s `inspect` reads (its loader: `--header`, http URLs) refused with one line and exit
/// 2; the closed port is on 127.0.0.1. The rest of `inspect`'s usage errors: InspectTests' `InspectCommandTests`.
@Suite struct InspectLoaderUsageTests {
    static let usageCases: [UsageCase] = [
        UsageCase(
            arguments: ["inspect", "--header", "nocolon", "x.m3u8"], code: 2,
            message: "Error: --header expects 'Name: value', got 'nocolon'\n"),
        UsageCase(
            arguments: ["inspect", "http://127.0.0.1:1/master.m3u8"], code: 2,
            message: "filterz inspect: error: http://127.0.0.1:1/master.m3u8: "),
    ]

    @Test(arguments: usageCases)
    func usageAndInputErrorsExitTwoWithOneLineNamingTheInput(_ example: UsageCase) {
        let result = runFilterz(example.arguments)
        #expect(result.code == example.code)
        #expect(result.err.hasPrefix(example.message), "\(result.err)")
        #expect(result.out == "")
    }
}
