import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Requests whose framing, target or size is hostile or at a limit, sent byte for byte on raw sockets: each gets
/// exactly one well-formed answer, and after a refusal nothing more (the connection is closed, so no request
/// hidden in what follows is ever answered).
@Suite struct RequestFramingTests {
    static let site: TestSite? = try? TestSite { site in
        try site.addVideo("a")
        try site.write("big/file.ts", [UInt8](repeating: 0x47, count: 64 << 20))
        try site.write("big/other.ts", [UInt8](repeating: 0x47, count: 16 << 20))
    }

    /// The statuses of every response to `request` on one connection, read until the server closes it.
    func statuses(_ request: String, port: UInt16) throws -> (statuses: [Int], bodies: [String], closed: Bool) {
        let connection = try RawConnection(port: port, timeoutSeconds: 5)
        try connection.send(request)
        var statuses: [Int] = [], bodies: [String] = []
        while true {
            do {
                let response = try connection.readResponse()
                statuses.append(response.status)
                bodies.append(response.bodyText)
            } catch RawHTTPError.closed {
                return (statuses, bodies, true)
            } catch {
                return (statuses, bodies, false)
            }
        }
    }

    struct Smuggling: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var testDescription: String { name }
    }

    static let hidden = "GET /a/v0/seg_0.ts HTTP/1.1\r\nHost: x\r\n\r\n"

    static let smuggling: [Smuggling] = [
        Smuggling(
            name: "Content-Length with Transfer-Encoding",
            request:
                "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + hidden),
        Smuggling(
            name: "two different Content-Lengths",
            request:
                "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: \(hidden.utf8.count)\r\n\r\n"
                + hidden),
        Smuggling(
            name: "Transfer-Encoding on HTTP/1.0",
            request:
                "GET /a/master.m3u8 HTTP/1.0\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n0\r\n\r\n"
                + hidden),
        Smuggling(
            name: "a GET whose body is another request",
            request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nContent-Length: \(hidden.utf8.count)\r\n\r\n" + hidden),
        Smuggling(
            name: "a POST whose body is another request",
            request: "POST /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nContent-Length: \(hidden.utf8.count)\r\n\r\n" + hidden),
    ]

    @Test(arguments: smuggling)
    func ambiguousFramingGetsOneRefusalAndTheConnectionEnds(_ testCase: Smuggling) throws {
        let site = try #require(Self.site)
        let answer = try statuses(testCase.request, port: site.port)
        #expect(answer.statuses.count == 1, "\(answer.statuses)")
        #expect(answer.statuses.first.map { [400, 405].contains($0) } == true)
        #expect(answer.closed)
    }

    @Test func wellFramedPipelinedRequestsAreAllAnswered() throws {
        let site = try #require(Self.site)
        let answer = try statuses(
            "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n" + Self.hidden
                + "GET /a/v0/index.m3u8 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: site.port)
        #expect(answer.statuses == [200, 200, 200])
        #expect(answer.closed)
    }

    @Test func aControlByteInTheTargetIsRefusedAndNothingIsServed() throws {
        let site = try #require(Self.site)
        for target in ["/a/master.m3u8\u{0}/../../etc/passwd", "/\u{0}index", "/a/master.m3u8\u{1}", "/a/\u{7f}"] {
            let answer = try statuses("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n", port: site.port)
            #expect(answer.statuses == [400], "\(target.debugDescription)")
            #expect(!answer.bodies.joined().contains("#EXTM3U") && !answer.bodies.joined().contains("<html"))
        }
    }

    struct Edge: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int
        /// A refusal before the handler closes the connection; the handler's own errors do not.
        var closes = true
        var testDescription: String { name }
    }

    static func fields(_ count: Int) -> String { (0..<count).map { "X-\($0): v\r\n" }.joined() }

    /// A GET of `/a/master.m3u8` whose head, blank line included, is exactly `bytes` long.
    static func head(bytes: Int) -> String {
        let start = "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nX-Pad: ", end = "\r\n\r\n"
        return start + String(repeating: "p", count: bytes - start.utf8.count - end.utf8.count) + end
    }

    /// A GET of a path of exactly `bytes` bytes below a video (no such file).
    static func path(bytes: Int) -> String {
        "GET /a/" + String(repeating: "p", count: bytes - 3) + " HTTP/1.1\r\nHost: x\r\n\r\n"
    }

    static let edges: [Edge] = [
        Edge(name: "missing Host", request: "GET /a/master.m3u8 HTTP/1.1\r\n\r\n", status: 400),
        Edge(
            name: "malformed Content-Length",
            request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", status: 400),
        Edge(
            name: "an 8 KB cookie",
            request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nCookie: " + String(repeating: "c", count: 8192)
                + "\r\n\r\n", status: 200),
        Edge(
            name: "a 16 KB target",
            request: "GET /" + String(repeating: "a", count: 16384) + " HTTP/1.1\r\nHost: x\r\n\r\n", status: 414),
        Edge(
            name: "a 4 KB path (the handler's 414: the connection stays)",
            request: "GET /" + String(repeating: "a", count: 4096) + " HTTP/1.1\r\nHost: x\r\n\r\n", status: 414,
            closes: false),
        Edge(
            name: "255 fields and Host", request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\n" + fields(255) + "\r\n",
            status: 200),
        Edge(
            name: "257 fields", request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\n" + fields(256) + "\r\n",
            status: 431),
        Edge(
            name: "a 40 KB field",
            request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 40_000)
                + "\r\n\r\n", status: 431),
        Edge(name: "a head of exactly 16 KiB", request: head(bytes: 16 * 1024), status: 200),
        Edge(name: "a head of 16 KiB and one byte", request: head(bytes: 16 * 1024 + 1), status: 431),
        Edge(name: "a path of exactly 2048 bytes", request: path(bytes: 2048), status: 404, closes: false),
        Edge(name: "a path of 2049 bytes", request: path(bytes: 2049), status: 414, closes: false),
        Edge(name: "HTTP/2.0 request line", request: "GET /a/master.m3u8 HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
    ]

    @Test(arguments: edges)
    func everyRefusalIsOneWellFormedAnswer(_ testCase: Edge) throws {
        let site = try #require(Self.site)
        let connection = try RawConnection(port: site.port, timeoutSeconds: 5)
        try connection.send(testCase.request)
        let response = try connection.readResponse()
        #expect(response.status == testCase.status)
        if testCase.status != 200 && testCase.closes {
            #expect(response.header("connection") == "close")
            // Nothing follows the one answer: no second header block, and the connection ends.
            let rest = connection.readToEnd()
            #expect(rest.bytes.isEmpty && rest.closedByPeer)
        }
    }

    @Test func anAbsoluteFormTargetIsServedLikeItsPath() throws {
        let site = try #require(Self.site)
        let absolute = try fetch(site.port, "GET", "http://127.0.0.1:\(site.port)/a/master.m3u8")
        let plain = try fetch(site.port, "GET", "/a/master.m3u8")
        #expect(absolute.status == 200 && absolute.body == plain.body)
        // Each well formed as a request line, so only the target's authority or form can be at fault.
        for target in [
            "http://bad<host>/a/master.m3u8", "http://x:123456/a/master.m3u8", "http://u@x/a/master.m3u8",
            "http:///a/master.m3u8", "ftp://x/a/master.m3u8", "http:x/a/master.m3u8", "http://[zz]/a/master.m3u8",
        ] {
            let connection = try RawConnection(port: site.port, timeoutSeconds: 5)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 400, "\(target)")
        }
    }

    @Test func failedPreconditionsAre412() throws {
        let site = try #require(Self.site)
        let tag = try #require(try fetch(site.port, "GET", "/a/master.m3u8").header("etag"))
        #expect(try fetch(site.port, "GET", "/a/master.m3u8", headers: ["If-Match": "\"other\""]).status == 412)
        #expect(try fetch(site.port, "GET", "/a/master.m3u8", headers: ["If-Match": tag]).status == 200)
        #expect(try fetch(site.port, "GET", "/a/master.m3u8", headers: ["If-Match": "W/" + tag]).status == 412)
        #expect(try fetch(site.port, "GET", "/a/master.m3u8", headers: ["If-Match": "*"]).status == 200)
        #expect(
            try fetch(
                site.port, "GET", "/a/master.m3u8", headers: ["If-Unmodified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"]
            ).status
                == 412)
        #expect(
            try fetch(
                site.port, "GET", "/a/master.m3u8", headers: ["If-Unmodified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"]
            ).status
                == 200)
    }

    /// The API's answers are made afresh and carry no validator: only `If-Match: *` holds for them, and a
    /// failed precondition counts only where the answer would be a success.
    @Test func theAPIsAnswersAre412UnlessIfMatchIsAStar() throws {
        let site = try #require(Self.site)
        for path in ["/v1/videos", "/v1/videos/a/stream"] {
            #expect(try fetch(site.port, "GET", path, headers: ["If-Match": "\"x\""]).status == 412, "\(path)")
            #expect(try fetch(site.port, "GET", path, headers: ["If-Match": "\"x\", *"]).status == 200, "\(path)")
            #expect(
                try fetch(site.port, "GET", path, headers: ["If-Unmodified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"])
                    .status == 200, "\(path)")
        }
        #expect(try fetch(site.port, "GET", "/v1/videos/none/stream", headers: ["If-Match": "\"x\""]).status == 404)
        #expect(try fetch(site.port, "GET", "/v1/videos?limit=0", headers: ["If-Match": "\"x\""]).status == 400)
    }

    @Test func rangePositionsPastTwoToTheSixtyThirdAreClampedOrUnsatisfiable() throws {
        let site = try #require(Self.site)
        let huge = "99999999999999999999999"
        #expect(try fetch(site.port, "GET", "/a/v0/seg_0.ts", headers: ["Range": "bytes=\(huge)-"]).status == 416)
        let clamped = try fetch(site.port, "GET", "/a/v0/seg_0.ts", headers: ["Range": "bytes=10-\(huge)"])
        #expect(clamped.status == 206 && clamped.header("content-range") == "bytes 10-1999/2000")
        let suffix = try fetch(site.port, "GET", "/a/v0/seg_0.ts", headers: ["Range": "bytes=-\(huge)"])
        #expect(suffix.status == 206 && suffix.body.count == 2000)
    }

    @Test func aFileTruncatedWhileItIsSentEndsTheConnectionAtOnce() throws {
        let site = try #require(Self.site)
        let connection = try RawConnection(port: site.port, timeoutSeconds: 10)
        try connection.send("GET /big/file.ts HTTP/1.1\r\nHost: x\r\n\r\n")
        var first = [UInt8](repeating: 0, count: 4096)
        #expect(recv(connection.descriptor, &first, first.count, 0) > 0)
        #expect(truncate(site.root.appendingPathComponent("big/file.ts").path, 1 << 20) == 0)
        let rest = connection.readToEnd()
        // Closed by the server (the client's 10 s receive timeout is well short of the 30 s idle timeout), and
        // short of the 64 MiB the head promised.
        #expect(rest.closedByPeer)
        #expect(rest.bytes.count + 4096 < 64 << 20)
    }

    @Test func clientsLeavingInTheMiddleOfAFileDoNotStopTheServer() throws {
        let site = try #require(Self.site)
        for _ in 0..<5 {
            let connection = try RawConnection(port: site.port)
            try connection.send("GET /big/other.ts HTTP/1.1\r\nHost: x\r\n\r\n")
            var first = [UInt8](repeating: 0, count: 1024)
            #expect(recv(connection.descriptor, &first, first.count, 0) > 0)
            // Closing with the rest unread resets the connection while sendfile is writing to it.
        }
        usleep(200_000)
        #expect(try fetch(site.port, "GET", "/a/master.m3u8").status == 200)
    }

    /// A site whose deadlines are far longer than any client here waits, so that an answer that comes only when
    /// one passes shows as a client timing out.
    static func patientSite() throws -> TestSite {
        try TestSite(
            populate: { try $0.addVideo("a") },
            configure: {
                $0.timeouts.requestHeadSeconds = 120
                $0.timeouts.idleSeconds = 120
            })
    }

    /// A request and the client's FIN in one packet (`printf … | nc`): the answers, then the end of the
    /// connection, well before the keep-alive timeout.
    @Test(arguments: [1, 2])
    func requestsThatArriveWithTheClientsFINAreAnsweredThenTheConnectionEnds(requests: Int) throws {
        let site = try Self.patientSite()
        let connection = try RawConnection(port: site.port, timeoutSeconds: 30)
        // Corked, the request waits in the client's socket; the FIN then leaves in the same segment.
        var yes: Int32 = 1
        setsockopt(connection.descriptor, Int32(IPPROTO_TCP), TCP_CORK, &yes, socklen_t(MemoryLayout<Int32>.size))
        try connection.send(String(repeating: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\n\r\n", count: requests))
        #expect(shutdown(connection.descriptor, Int32(SHUT_WR)) == 0)
        var responses: [RawResponse] = []
        for _ in 0..<requests { responses.append(try connection.readResponse()) }
        #expect(responses.map(\.status) == Array(repeating: 200, count: requests))
        #expect(responses.last?.header("connection") == "close")
        #expect(connection.isClosedByPeer())
    }

    /// The first bytes of a TLS ClientHello (no line feed among them), as a browser sends to an https:// URL.
    static let clientHello: [UInt8] =
        [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]
        + (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) } + [0x20]
        + (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 3) }
        + [0x00, 0x20, 0x13, 0x01, 0x13, 0x02, 0x13, 0x03, 0xc0, 0x2b, 0xc0, 0x2f, 0xc0, 0x2c, 0xc0, 0x30, 0x01, 0x00]

    @Test func aTLSHandshakeOnThePlainPortGetsOne400AtOnce() throws {
        #expect(!Self.clientHello.contains(0x0a))
        let site = try Self.patientSite()
        let connection = try RawConnection(port: site.port, timeoutSeconds: 30)
        try connection.send(Self.clientHello)
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(response.bodyText.contains("TLS handshake"), "\(response.bodyText)")
        #expect(connection.isClosedByPeer())
    }
}
