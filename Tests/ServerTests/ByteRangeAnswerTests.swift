import Testing

@testable import Server

@Suite struct ByteRangeAnswerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var header: String?
        var size: Int64
        var expected: ByteRangeAnswer
        var testDescription: String { "\(header ?? "nil") of \(size)" }
    }

    static let cases: [Case] = [
        Case(header: nil, size: 100, expected: .whole),
        Case(header: "bytes=0-9", size: 100, expected: .partial(0...9)),
        Case(header: "bytes=10-", size: 100, expected: .partial(10...99)),
        Case(header: "bytes=-10", size: 100, expected: .partial(90...99)),
        Case(header: "bytes=-1000", size: 100, expected: .partial(0...99)),
        Case(header: "bytes=90-1000", size: 100, expected: .partial(90...99)),
        Case(header: "bytes=99-99", size: 100, expected: .partial(99...99)),
        Case(header: "bytes=100-", size: 100, expected: .unsatisfiable),
        Case(header: "bytes=100-200", size: 100, expected: .unsatisfiable),
        Case(header: "bytes=-0", size: 100, expected: .unsatisfiable),
        Case(header: "bytes=0-0", size: 0, expected: .unsatisfiable),
        Case(header: "bytes=-5", size: 0, expected: .unsatisfiable),
        Case(header: "bytes=5-2", size: 100, expected: .whole),
        Case(header: "bytes=0-1,5-6", size: 100, expected: .whole),
        Case(header: "items=0-5", size: 100, expected: .whole),
        Case(header: "bytes=abc", size: 100, expected: .whole),
        Case(header: "bytes=-", size: 100, expected: .whole),
        Case(header: "bytes=+1-2", size: 100, expected: .whole),
        Case(header: "bytes=99999999999999999999-", size: 100, expected: .unsatisfiable),
        Case(header: "bytes=5-99999999999999999999", size: 100, expected: .partial(5...99)),
        Case(header: "bytes=-99999999999999999999", size: 100, expected: .partial(0...99)),
        Case(header: "Bytes= 3 - 4 ", size: 100, expected: .partial(3...4)),
    ]

    @Test(arguments: cases)
    func singleRangesAreHonouredAndTheRestIsAnsweredWhole(_ testCase: Case) {
        #expect(ByteRangeAnswer(rangeHeader: testCase.header, size: testCase.size) == testCase.expected)
    }

    @Test func contentRangeNamesTheBytesOrTheSizeAlone() {
        #expect(ByteRangeAnswer.partial(0...9).contentRange(size: 100) == "bytes 0-9/100")
        #expect(ByteRangeAnswer.unsatisfiable.contentRange(size: 100) == "bytes */100")
        #expect(ByteRangeAnswer.whole.contentRange(size: 100) == nil)
    }
}
