import FilterzTestSupport
import JSON
import Testing

/// `JSONValue(parsing:)`: RFC 8259 text to values, with every refusal naming what and where.
@Suite struct JSONReaderTests {
    static func read(_ text: String) throws(JSONReadError) -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }

    @Test func everyKindOfValueIsReadAndObjectsKeepTheirOrder() throws {
        let value = try Self.read(
            #" {"z": [1, -2, 3.5, 1e2, true, false, null], "a": {"s": "t\u00e9\n\"\\\/"}, "m": -0} "#)
        #expect(
            value
                == .object([
                    (
                        "z",
                        .array([
                            .integer(1), .integer(-2), .number(3.5), .number(100), .bool(true), .bool(false), .null,
                        ])
                    ),
                    ("a", .object([("s", .string("té\n\"\\/"))])),
                    ("m", .integer(0)),
                ]))
    }

    @Test func aSurrogatePairIsOneCharacterAndAByteOrderMarkIsSkipped() throws {
        #expect(try Self.read(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    @Test(arguments: [
        ("{\"a\": 1,\n  \"name\": \"x\\ud800y\"}", "\\ud800", "name", 2, 13),
        (#"["\udc00"]"#, "\\udc00", "[0]", 1, 3),
        (#"{"키": "\ud800\u0041"}"#, "\\ud800", "키", 1, 8),
    ])
    func aLoneSurrogateIsNamedWithItsLineAndColumn(
        _ text: String, _ escape: String, _ path: String, _ line: Int, _ column: Int
    ) {
        #expect(throws: JSONReadError.loneSurrogate(escape: escape, path: path, line: line, column: column)) {
            try Self.read(text)
        }
    }

    @Test func aNumberBeyondADoubleIsNamedAndATinyOneIsZero() throws {
        #expect(throws: JSONReadError.numberOutOfRange(text: "1e309", path: "values.brightness", line: 2, column: 27)) {
            try Self.read("{\"values\": {\"contrast\": 1,\n            \"brightness\": 1e309}}")
        }
        #expect(throws: JSONReadError.self) { try Self.read("[-1e400]") }
        #expect(try Self.read("[1e-400]") == .array([.number(0)]))
        #expect(try Self.read("123456789012345678901") == .number(1.23456789012345678901e20))
        #expect(try Self.read("-9223372036854775808") == .integer(.min))
    }

    @Test func aDuplicateKeyIsRefusedNamingItAndBothLines() {
        #expect(throws: JSONReadError.duplicateKey(path: "values.contrast", line: 4, firstLine: 2)) {
            try Self.read("{\"values\": {\n \"contrast\": 1,\n \"blur\": 2,\n \"contrast\": 3}}")
        }
        // Past the size where the reader switches from a linear search to an index.
        let keys = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k7\": 0"]
        #expect(throws: JSONReadError.duplicateKey(path: "k7", line: 1, firstLine: 1)) {
            try Self.read("{" + keys.joined(separator: ", ") + "}")
        }
    }

    @Test(arguments: [
        ("", "unexpected end of file at line 1 column 1 (expected a value)"),
        ("{\"values\": ", "unexpected end of file at line 1 column 12 (expected a value)"),
        ("{\"a\" 1}", "unexpected '1' at line 1 column 6 (expected ':')"),
        ("[1,]", "unexpected ']' at line 1 column 4 (expected a value)"),
        ("[1 2]", "unexpected '2' at line 1 column 4 (expected ',' or ']')"),
        ("01", "unexpected '1' at line 1 column 2 (expected the end of the document)"),
        ("1.", "unexpected end of file at line 1 column 3 (expected a digit after '.')"),
        ("\"\\x\"", "an invalid escape \\x at line 1 column 2"),
        (
            "\"a\nb\"",
            "unexpected byte 0x0A at line 1 column 3 (expected '\"' or an escape (control characters must be escaped))"
        ),
        ("tru", "unexpected end of file at line 1 column 4 (expected a value)"),
        ("{} x", "unexpected 'x' at line 1 column 4 (expected the end of the document)"),
        ("{'a': 1}", "unexpected \"'\" at line 1 column 2 (expected a key in double quotes or '}')"),
        ("NaN", "unexpected 'N' at line 1 column 1 (expected a value)"),
    ])
    func aSyntaxErrorSaysWhatWasExpectedAndWhere(_ text: String, _ says: String) {
        do {
            _ = try Self.read(text)
            Issue.record("\(text) was read")
        } catch {
            #expect(error.isSyntaxError)
            #expect(error.description == says)
        }
    }

    @Test func bytesThatAreNotUTF8InAStringAreRefused() {
        #expect(throws: JSONReadError.invalidUTF8(line: 1, column: 2)) {
            try JSONValue(parsing: [0x5B, 0x22, 0xFF, 0x22, 0x5D])
        }
    }

    @Test func deepNestingIsRefusedInsteadOfExhaustingTheStack() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONReadError.tooDeep(limit: JSONValue.maximumNestingDepth, line: 1, column: 65)) {
            try Self.read(text)
        }
    }

    /// Seeded random documents written by `JSONValue.rendered` read back as the same values.
    @Test(arguments: 1...20)
    func whatTheWriterWritesReadsBackTheSame(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let value = Self.randomValue(&random, depth: 0)
        #expect(try JSONValue(parsing: Array(value.rendered(indent: seed % 2 == 0 ? nil : 2).utf8)) == value)
    }

    static func randomValue(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        let scalars: [Unicode.Scalar] = ["a", "\"", "\\", "\n", "\u{01}", "é", "한", "😀", "/", " "]
        func text() -> String {
            String(String.UnicodeScalarView((0..<random.below(6)).map { _ in scalars[random.below(scalars.count)] }))
        }
        switch random.below(depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .integer(Int(truncatingIfNeeded: random.next()) >> random.below(64))
        case 3:
            return .number(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (random.below(2) == 0 ? 1 : -1))
        case 4: return .string(text())
        case 5: return .array((0..<random.below(5)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [(String, JSONValue)] = []
            for index in 0..<random.below(5) {
                members.append(("\(index)" + text(), randomValue(&random, depth: depth + 1)))
            }
            return .object(members)
        }
    }
}

extension SeededGenerator {
    /// `next()` modulo `n`.
    fileprivate mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
