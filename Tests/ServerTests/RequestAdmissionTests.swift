import Testing

@testable import Server

/// Framing, host and body rules on complete heads (RFC 9112 §3.2, §6.1, §6.3; RFC 9110 §7.2).
@Suite struct RequestAdmissionTests {
    /// The refusal's status, from the parser or from the admission rules; nil when the request may pass.
    func status(_ text: String) -> Int? {
        switch RequestHeadParser().parse(Array(text.utf8)) {
        case .complete(let head, _): return RequestAdmission.refusal(for: head)?.status
        case .refused(let refusal): return refusal.status
        case .incomplete:
            Issue.record("not a complete head: \(text)")
            return -1
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "plain GET", request: "GET /a HTTP/1.1\r\nHost: x\r\n\r\n", status: nil),
        Case(
            name: "GET with Content-Length 0", request: "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
            status: nil),
        Case(
            name: "Content-Length and Transfer-Encoding",
            request: "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: 400),
        Case(
            name: "Content-Length 0 and Transfer-Encoding",
            request: "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: 400),
        Case(
            name: "two different Content-Lengths",
            request: "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", status: 400),
        Case(
            name: "two equal Content-Lengths",
            request: "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n", status: 400),
        Case(
            name: "a Content-Length list", request: "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\n",
            status: 400),
        Case(
            name: "a signed Content-Length", request: "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n",
            status: 400),
        Case(
            name: "Transfer-Encoding on HTTP/1.0", request: "GET /a HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: 400),
        Case(
            name: "GET with a chunked body",
            request: "GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        Case(name: "GET with a body", request: "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 30\r\n\r\n", status: 400),
        Case(
            name: "HEAD with a body", request: "HEAD /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n", status: 400),
        Case(
            name: "POST with a body", request: "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n", status: 405),
        Case(name: "HTTP/1.1 without Host", request: "GET /a HTTP/1.1\r\n\r\n", status: 400),
        Case(name: "HTTP/1.0 without Host", request: "GET /a HTTP/1.0\r\n\r\n", status: nil),
        Case(name: "two Hosts", request: "GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", status: 400),
        Case(name: "a malformed Host", request: "GET /a HTTP/1.1\r\nHost: x/y\r\n\r\n", status: 400),
        Case(name: "a Host with a port", request: "GET /a HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", status: nil),
        Case(name: "an IPv6 Host", request: "GET /a HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", status: nil),
        Case(
            name: "an absolute target", request: "GET http://127.0.0.1:8080/a?b HTTP/1.1\r\nHost: x\r\n\r\n",
            status: nil),
        Case(
            name: "an absolute target with a bad port", request: "GET http://x:8a/a HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400),
        Case(name: "the asterisk with GET", request: "GET * HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "the asterisk with OPTIONS", request: "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", status: nil),
    ]

    @Test(arguments: cases)
    func ambiguousFramingsAndBadHostsAreRefused(_ testCase: Case) {
        #expect(status(testCase.request) == testCase.status)
    }

    @Test func anAbsoluteTargetGivesItsPathQueryAndAuthority() {
        #expect(
            RequestTarget.parse("HTTPS://Example.com:8080?x=1")
                == .success(RequestTarget(rawPath: "/", rawQuery: "x=1", authority: "Example.com:8080")))
        #expect(
            RequestTarget.parse("http://h/a/b.m3u8") == .success(RequestTarget(rawPath: "/a/b.m3u8", authority: "h")))
    }

    @Test func keepAliveFollowsTheVersionAndConnection() {
        func keepsAlive(_ text: String) -> Bool? {
            guard case .complete(let head, _) = RequestHeadParser().parse(Array(text.utf8)) else { return nil }
            return head.keepsAlive
        }
        #expect(keepsAlive("GET / HTTP/1.1\r\nHost: x\r\n\r\n") == true)
        #expect(keepsAlive("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Close\r\n\r\n") == false)
        #expect(keepsAlive("GET / HTTP/1.0\r\n\r\n") == false)
        #expect(keepsAlive("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") == true)
    }
}
