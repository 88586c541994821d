import Testing

@testable import Server

/// `--faults` rules as written, their path patterns, and which requests a plan picks.
struct FaultRuleTests {
    @Test func rulesReadTheirPatternActionAndSelection() throws {
        let status = try FaultRule(parsing: "path=*.ts,status=503,nth=3")
        #expect(status.pattern == "*.ts" && status.action == .status(503) && status.selection == .nth(3))
        #expect(try FaultRule(parsing: "path=/a/*,cut=1000").action == .cut(afterBytes: 1000))
        #expect(try FaultRule(parsing: "path=*.m3u8,delay=1.5s,every=4").action == .delay(milliseconds: 1500))
        #expect(try FaultRule(parsing: "path=*.m3u8,delay=250ms").action == .delay(milliseconds: 250))
        #expect(try FaultRule(parsing: "path=*,status=404,share=0.25").selection == .share(0.25))
    }

    @Test(arguments: [
        ("status=503", "no path=PATTERN"),
        ("path=*.ts", "no action"),
        ("path=*.ts,status=200", "status expects a code in 400…599"),
        ("path=*.ts,status=503,cut=5", "more than one action"),
        ("path=*.ts,status=503,nth=0", "nth expects a whole number from 1"),
        ("path=*.ts,status=503,nth=2,share=0.5", "more than one of nth, every, share"),
        ("path=*.ts,status=503,share=1.5", "share expects a fraction"),
        ("path=*.ts,delay=soon", "delay expects a time"),
        ("path=*.ts,status=503,when=now", "unknown key 'when'"),
        ("path=*.ts,status", "'status' is not key=value"),
        ("path=,status=503", "path expects a pattern"),
    ])
    func aWrongRuleSaysWhatIsWrong(_ rule: String, _ problem: String) {
        #expect {
            _ = try FaultRule(parsing: rule)
        } throws: { error in
            "\(error)".contains(problem) && "\(error)".contains(rule)
        }
    }

    @Test(arguments: [
        ("*.ts", "/clip/v0/seg_001.ts", true),
        ("*.ts", "/clip/v0/seg_001.ts.bak", false),
        ("/clip/*/index.m3u8", "/clip/v0/index.m3u8", true),
        ("/clip/*/index.m3u8", "/other/v0/index.m3u8", false),
        ("*seg_00?.ts", "/a/seg_007.ts", true),
        ("*seg_00?.ts", "/a/seg_0071.ts", false),
        ("*", "/anything", true),
        ("/a*b*c", "/aXbYbZc", true),
        ("/a*b*c", "/aXbYbZ", false),
    ])
    func pathsMatchTheirPattern(_ pattern: String, _ path: String, _ matches: Bool) {
        #expect(FaultRule(pattern: pattern, action: .status(404)).matches(path) == matches)
    }

    @Test func aPlanPicksTheNthAndEveryNthMatchingRequestAndTheFirstPickingRuleWins() {
        var plan = FaultPlan(rules: [
            FaultRule(pattern: "*.ts", action: .status(503), selection: .nth(2)),
            FaultRule(pattern: "*.ts", action: .cut(afterBytes: 10), selection: .every(3)),
        ])
        let hits = (1...7).map { _ in plan.fault(forPath: "/v/seg.ts")?.action }
        #expect(hits == [nil, .status(503), .cut(afterBytes: 10), nil, nil, .cut(afterBytes: 10), nil])
        #expect(plan.fault(forPath: "/v/index.m3u8") == nil)
    }

    @Test func aShareIsDrawnFromTheSeedAndComesClose() {
        func picks(seed: UInt64) -> [Bool] {
            var plan = FaultPlan(
                rules: [FaultRule(pattern: "*", action: .status(500), selection: .share(0.1))], seed: seed)
            return (0..<10_000).map { _ in plan.fault(forPath: "/x") != nil }
        }
        let first = picks(seed: 7)
        #expect(first == picks(seed: 7), "the same seed picks the same requests")
        #expect(first != picks(seed: 8))
        let share = Double(first.filter { $0 }.count) / 10_000
        #expect(abs(share - 0.1) < 0.015, "\(share)")
    }
}
