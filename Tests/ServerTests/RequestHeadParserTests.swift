import FilterzTestSupport
import Testing

@testable import Server

/// The request head rules, without sockets: what is accepted, what is refused with which status, and where the
/// limits fall, byte for byte at each edge.
@Suite struct RequestHeadParserTests {
    let parser = RequestHeadParser()

    func parse(_ text: String) -> RequestHeadParser.Outcome { parser.parse(Array(text.utf8)) }

    func refusal(_ text: String) -> Int? {
        if case .refused(let refusal) = parse(text) { return refusal.status }
        return nil
    }

    func head(_ text: String) -> RequestHead? {
        if case .complete(let head, _) = parse(text) { return head }
        return nil
    }

    @Test func aPlainRequestGivesItsMethodTargetVersionAndFields() throws {
        let text = "GET /a/master.m3u8?token=1.ab HTTP/1.1\r\nHost: x\r\nRange:  bytes=0-1 \r\n\r\nNEXT"
        guard case .complete(let head, let length) = parse(text) else {
            Issue.record("not complete")
            return
        }
        #expect(length == text.utf8.count - 4)
        #expect(head.method == "GET" && head.version == .http11)
        #expect(head.target == RequestTarget(rawPath: "/a/master.m3u8", rawQuery: "token=1.ab"))
        #expect(head.fields == [RequestHead.Field("host", "x"), RequestHead.Field("range", "bytes=0-1")])
        #expect(head.keepsAlive)
    }

    @Test func bareLineFeedsAndLeadingEmptyLinesAreAccepted() {
        #expect(head("\r\n\nGET / HTTP/1.0\nHost: x\n\n")?.version == .http10)
    }

    @Test func everyProperPrefixOfAHeadIsIncomplete() {
        let text = Array("GET /a HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n".utf8)
        for end in 0..<text.count {
            #expect(parser.parse(Array(text[..<end])) == .incomplete, "prefix of \(end) bytes")
        }
        #expect(head(String(decoding: text, as: UTF8.self)) != nil)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int
        var testDescription: String { name }
    }

    static let refused: [Refused] = [
        Refused(
            name: "NUL in the target",
            request: "GET /warm/master.m3u8\u{0}/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(
            name: "NUL at the start of the target", request: "GET /\u{0}x HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "TAB in the target", request: "GET /a\tb HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "DEL in the target", request: "GET /a\u{7f} HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "non-ASCII in the target", request: "GET /é HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "bare CR in the target", request: "GET /a\rb HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "two spaces", request: "GET  /a HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "no version", request: "GET /a\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "HTTP/2.0", request: "GET /a HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
        Refused(name: "HTTP/9.9", request: "GET /a HTTP/9.9\r\nHost: x\r\n\r\n", status: 505),
        Refused(name: "lower-case version", request: "GET /a http/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "method with a control byte", request: "G\u{1}ET /a HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(
            name: "obsolete line folding", request: "GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n 2\r\n\r\n", status: 400),
        Refused(name: "space before the colon", request: "GET /a HTTP/1.1\r\nHost : x\r\n\r\n", status: 400),
        Refused(name: "field without a colon", request: "GET /a HTTP/1.1\r\nHost x\r\n\r\n", status: 400),
        Refused(name: "NUL in a field value", request: "GET /a HTTP/1.1\r\nHost: x\u{0}y\r\n\r\n", status: 400),
        Refused(name: "bare CR in a field value", request: "GET /a HTTP/1.1\r\nHost: x\ry\r\n\r\n", status: 400),
        Refused(
            name: "userinfo in an absolute target", request: "GET http://u@x/a HTTP/1.1\r\nHost: x\r\n\r\n", status: 400
        ),
        Refused(name: "ftp scheme", request: "GET ftp://x/a HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Refused(name: "authority form", request: "CONNECT x:443 HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
    ]

    @Test(arguments: refused)
    func malformedHeadsAreRefusedWithTheirStatus(_ testCase: Refused) {
        #expect(refusal(testCase.request) == testCase.status)
    }

    @Test func aNulByteIsRefusedBeforeTheLineEnds() {
        #expect(refusal("GET /a\u{0}") == 400)
    }

    @Test func whatCannotBecomeARequestIsRefusedBeforeItsLineEnds() {
        let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]
        #expect(parser.parse(clientHello) == .refused(.badRequest("a TLS handshake on a plain HTTP port")))
        for text in ["GE<T /", "{\"a\": 1", " GET /", "GET /\u{e9}", "GET /a\tb", "GET /a HTTP/1.1\r\nHost: x\u{1}"] {
            #expect(refusal(text) == 400, "\(text.debugDescription)")
        }
        // What may still become a request waits for more.
        for text in [
            "\r", "GET", "GET /a HTTP/1.1\r", "\r\nGET /a", "GET /a HTTP/1.1\r\nHost: x\r", "GET /a HTTP/1.1\r\nX: é",
        ] {
            #expect(parse(text) == .incomplete, "\(text.debugDescription)")
        }
    }

    @Test func aHeadTricklingInIsParsedOnlyWhenItsNewBytesCanDecide() {
        func decides(_ text: String, after received: Int) -> Bool {
            Array(text.utf8).withUnsafeBytes { RequestHeadParser.mayDecideBeforeLineEnd($0, receivedBefore: received) }
        }
        #expect(decides("G", after: 0) && decides("x", after: RequestHeadParser.earlyBytes - 1))
        #expect(!decides("x", after: RequestHeadParser.earlyBytes))
        #expect(!decides("\t\r é", after: 100))
        #expect(decides("\n", after: 100) && decides("a\u{0}", after: 100) && decides("\u{7f}", after: 100))
    }

    @Test func theRequestLineLimitFallsAtItsByte() {
        let limit = RequestLimits().requestLineBytes
        let prefix = "GET /", suffix = " HTTP/1.1"
        let fits = prefix + String(repeating: "a", count: limit - prefix.count - suffix.count) + suffix
        #expect(head(fits + "\r\nHost: x\r\n\r\n") != nil)
        #expect(
            refusal(
                "GET /" + String(repeating: "a", count: limit - prefix.count - suffix.count + 1) + suffix
                    + "\r\nHost: x\r\n\r\n") == 414)
        // Also without the line end yet: a request line that can no longer fit is refused at once.
        #expect(refusal("GET /" + String(repeating: "a", count: limit + 10)) == 414)
    }

    @Test func theHeadLimitFallsAtItsByte() {
        let limit = RequestLimits().headBytes
        let start = "GET /a HTTP/1.1\r\nHost: x\r\nCookie: "
        let end = "\r\n\r\n"
        let fits = start + String(repeating: "c", count: limit - start.utf8.count - end.utf8.count) + end
        #expect(fits.utf8.count == limit)
        #expect(head(fits) != nil)
        let over = start + String(repeating: "c", count: limit - start.utf8.count - end.utf8.count + 1) + end
        #expect(refusal(over) == 431)
    }

    @Test func anEightKilobyteCookieFits() {
        #expect(
            head("GET /a HTTP/1.1\r\nHost: x\r\nCookie: " + String(repeating: "k", count: 8192) + "\r\n\r\n") != nil)
    }

    @Test func theFieldCountLimitFallsAtItsField() {
        let limit = RequestLimits().fieldCount
        func request(fields: Int) -> String {
            "GET /a HTTP/1.1\r\nHost: x\r\n" + (1..<fields).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        }
        #expect(head(request(fields: limit))?.fields.count == limit)
        #expect(refusal(request(fields: limit + 1)) == 431)
    }

    @Test func seededRandomBytesNeverTrapAndAlwaysGiveTheSameAnswer() {
        var random = SeededGenerator(seed: 17)
        let alphabet = Array("GET /aHTP1.0\r\n: \t\u{0}\u{7f}%?#".utf8) + [0xff, 0x80]
        for _ in 0..<3000 {
            let count = Int(random.next() % 120)
            let bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let outcome = parser.parse(bytes)
            #expect(outcome == parser.parse(bytes))
            if case .complete(_, let length) = outcome { #expect(length <= bytes.count) }
        }
    }
}
