import FilterzTestSupport
import Testing

@testable import HLS

/// The parser's fast paths (eight-byte line scan, hashed tag lookup, integer-mantissa decimals) against
/// plain reference implementations.
@Suite struct FastPathAgreementTests {
    /// Reference line scan: split at LF, drop one CR before it, report the first control byte of each line.
    static func referenceControlCharacters(_ bytes: [UInt8]) -> [HLS.SourceLocation] {
        var found: [HLS.SourceLocation] = []
        var line = 1
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var contentEnd = end
            if contentEnd > start && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            if let first = (start..<contentEnd).first(where: { bytes[$0] < 0x20 || bytes[$0] == 0x7F }) {
                found.append(SourceLocation(line: line, column: first - start + 1))
            }
            line += 1
            start = end + 1
        }
        return found
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theWordAtATimeLineScanFindsWhatTheByteLoopFinds(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let alphabet: [UInt8] =
            Array("#EXTINF:,a=\"é".utf8) + [0x09, 0x0D, 0x0A, 0x0A, 0x7F, 0x00, 0x1F, 0x20, 0x80, 0xFF]
        for _ in 0..<300 {
            var bytes = Array("#EXTM3U\n".utf8)
            for _ in 0..<Int.random(in: 0...200, using: &random) {
                bytes.append(alphabet.randomElement(using: &random)!)
            }
            let result = HLS.parse(bytes, options: ParseOptions(maximumDiagnosticCount: 100_000))
            let found = result.diagnostics
                .filter { $0.code == .controlCharacter || $0.code == .strayCarriageReturn }
                .map(\.location)
            #expect(found == Self.referenceControlCharacters(bytes), "input \(bytes)")
            let lines =
                bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
                - (bytes.last == 0x0A ? 1 : 0)
            #expect(result.playlist?.parseInfo?.lineCount == lines)
        }
    }

    @Test func theHashedTagLookupAgreesWithALinearSearch() {
        var random = SeededGenerator(seed: 7)
        var names = TagName.allCases.map(\.rawValue)
        let letters = Array("EXT-ABCDGIKMNOPRSTUVY".utf8)
        for _ in 0..<5000 {
            names.append(
                String(
                    decoding: (0..<Int.random(in: 1...30, using: &random)).map { _ in
                        letters.randomElement(using: &random)!
                    }, as: UTF8.self))
            // Near misses: one byte of a real name changed.
            var near = Array(TagName.allCases.randomElement(using: &random)!.rawValue.utf8)
            near[Int.random(in: 0..<near.count, using: &random)] = letters.randomElement(using: &random)!
            names.append(String(decoding: near, as: UTF8.self))
        }
        for name in names {
            let bytes = Array(name.utf8)
            let fast = bytes.withUnsafeBufferPointer { TagName.lookup($0, 0..<bytes.count) }
            #expect(fast == TagName(rawValue: name), "\(name)")
        }
    }

    @Test func integerMantissaDecimalsEqualTheStandardLibrarysParse() {
        var random = SeededGenerator(seed: 11)
        var texts = [
            "0", "0.0", "9.009", "4.00008", "10", "0.33334", "6.006", "1.", ".5", "00012.5000",
            "123456789012345678.5", "0.1234567890123456789012345", "99999999999999999999",
        ]
        for _ in 0..<20_000 {
            let whole = String(
                UInt64.random(in: 0...UInt64.max, using: &random)
                    % [10, 1000, 1_000_000, 10_000_000_000_000][Int.random(in: 0..<4, using: &random)])
            let fraction = String(UInt64.random(in: 0...UInt64.max, using: &random)).prefix(
                Int.random(in: 0...12, using: &random))
            texts.append(fraction.isEmpty ? whole : whole + "." + fraction)
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { $0.plainDecimal(0..<bytes.count) }
            #expect(
                fast == Double(text.hasSuffix(".") ? text + "0" : (text.hasPrefix(".") ? "0" + text : text)), "\(text)")
        }
    }
}
