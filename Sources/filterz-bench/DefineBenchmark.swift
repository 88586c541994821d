// filterz-bench defines: variable substitution (EXT-X-DEFINE) scales linearly. Each input is parsed at size N
// and 8 N; a linear parser takes about 8 times as long for the larger, a quadratic one about 64 times, so the
// ratio is the figure (the smaller input is the anchor, measured in the same run).
//
// Inputs (generated, deterministic), N = 1,250 … 10,000 (the variable limit):
//   * independent: N definitions, then 10 N segments each referencing one of them;
//   * chained: N definitions, each value a reference to the one before (so each is resolved through the
//     previous definition and the output stays the same size per line), then N segments referencing the last
//     ones.
// Time: median CPU time of the parsing thread over 5 parses.
import CLIKit
import HLS
import Inspect
import JSON

enum DefineBenchmark {
    static var command: Command {
        Command(
            CommandSpec(
                name: "defines",
                abstract: "EXT-X-DEFINE substitution: parse time at 8× the definitions and references, as a ratio.")
        ) { _, _ in run() }
    }

    static func independent(_ count: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:4\n"
        for k in 0..<count { text += "#EXT-X-DEFINE:NAME=\"v\(k)\",VALUE=\"seg\(k)\"\n" }
        for k in 0..<(10 * count) { text += "#EXTINF:4.000,\n{$v\(k % count)}_\(k).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    static func chained(_ count: Int) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:4\n#EXT-X-DEFINE:NAME=\"v0\",VALUE=\"s\"\n"
        for k in 1..<count { text += "#EXT-X-DEFINE:NAME=\"v\(k)\",VALUE=\"{$v\(k - 1)}\"\n" }
        for k in 0..<count { text += "#EXTINF:4.000,\n{$v\(count - 1 - k % 8)}.ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// Median thread CPU seconds of parsing `text`.
    static func parseSeconds(_ text: String) -> Double {
        let bytes = Array(text.utf8)
        return Measuring.median(
            (0..<5).map { _ in
                let start = Measuring.threadCPUSeconds()
                let result = HLS.parse(bytes)
                precondition(result.playlist != nil)
                return Measuring.threadCPUSeconds() - start
            })
    }

    static func run() -> Int32 {
        var fields: [(String, JSONValue)] = []
        for (name, make) in [("independent", independent), ("chained", chained)] {
            let small = parseSeconds(make(1250)), large = parseSeconds(make(10_000))
            let ratio = large / max(small, 1e-9)
            print(
                "  \(name): N = 1,250: \(fixedNumber(small * 1000, digits: 2)) ms; N = 10,000: \(fixedNumber(large * 1000, digits: 2)) ms; ratio \(fixedNumber(ratio, digits: 1)) (linear 8, quadratic 64)"
            )
            fields.append((name + "_ratio", ResultLine.number(ratio, places: 1)))
        }
        ResultLine.print("defines", fields)
        return 0
    }
}
