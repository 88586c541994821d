import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import Server

/// Requests crafted to escape the served folder or to wear the server down. Sent on raw sockets, byte for byte
/// (curl would normalise `..` and escapes). Every one must get a 4xx and no byte of the secret outside.
@Suite(.tags(.network), .fullRunOnly) struct HostileInputTests {
    static let secret = "TOP-SECRET-OUTSIDE-THE-ROOT"

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        /// The acceptable statuses.
        var expected: Range<Int> = 400..<500
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "../", request: "GET /../outside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "deep ../", request: "GET /a/../../outside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "%2e%2e/", request: "GET /%2e%2e/outside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "%2E%2E%2F", request: "GET /a/%2E%2E%2F%2E%2E%2Foutside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "%2f", request: "GET /..%2foutside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "double-encoded", request: "GET /%252e%252e/outside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "%00", request: "GET /a/master.m3u8%00.ts HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "..\\", request: "GET /..\\outside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "%5c", request: "GET /..%5coutside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "absolute path", request: "GET //etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "absolute-form target", request: "GET http://x/../outside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "symlink out of the root", request: "GET /a/escape.ts HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "symlinked folder", request: "GET /a/outdir/outside.txt HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "hidden file", request: "GET /.env HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(
            name: "overlong URL",
            request: "GET /" + String(repeating: "a", count: 20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(
            name: "long URL", request: "GET /" + String(repeating: "a/", count: 1500) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(
            name: "huge header",
            request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 40_000)
                + "\r\n\r\n"),
        Case(
            name: "many headers",
            request: "GET /a/master.m3u8 HTTP/1.1\r\nHost: x\r\n"
                + String(repeating: "X-A: 1234567890\r\n", count: 2000) + "\r\n"),
        Case(name: "bad method", request: "FROB /a/master.m3u8 HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "request-line garbage", request: "\u{01}\u{02}garbage\u{7f} \r\n\r\n"),
        Case(name: "no target, no version", request: "GET\r\n\r\n"),
        Case(name: "bad version", request: "GET /a/master.m3u8 HTTP/9.9\r\nHost: x\r\n\r\n", expected: 505..<506),
        Case(name: "missing Host", request: "GET /a/master.m3u8 HTTP/1.1\r\n\r\n"),
        Case(name: "bad escape", request: "GET /a/%zz HTTP/1.1\r\nHost: x\r\n\r\n"),
        Case(name: "invalid UTF-8", request: "GET /a/%ff%fe.ts HTTP/1.1\r\nHost: x\r\n\r\n"),
    ]

    static let site: TestSite? = try? TestSite { site in
        try site.addVideo("a")
        let outside = site.root.deletingLastPathComponent().appendingPathComponent(
            site.root.lastPathComponent + "-outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data(secret.utf8).write(to: outside.appendingPathComponent("outside.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: site.root.appendingPathComponent("a/escape.ts").path,
            withDestinationPath: outside.appendingPathComponent("outside.txt").path)
        try FileManager.default.createSymbolicLink(
            atPath: site.root.appendingPathComponent("a/outdir").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(
            atPath: site.root.appendingPathComponent("a/inside.ts").path, withDestinationPath: "v0/seg_0.ts")
        try FileManager.default.createSymbolicLink(
            atPath: site.root.appendingPathComponent("outside.txt").path,
            withDestinationPath: "../" + outside.lastPathComponent + "/outside.txt")
        try Data(secret.utf8).write(to: site.root.appendingPathComponent(".env"))
    }

    @Test(arguments: cases)
    func hostileRequestsGet4xxAndNothingFromOutside(_ testCase: Case) throws {
        let site = try #require(Self.site)
        let connection = try RawConnection(port: site.port)
        try connection.send(testCase.request)
        let response = try connection.readResponse()
        #expect(testCase.expected.contains(response.status), "\(testCase.name): \(response.status)")
        #expect(!response.bodyText.contains(Self.secret))
    }

    @Test func outsideFilesAnswerExactlyLikeMissingOnes() throws {
        let site = try #require(Self.site)
        let escape = try fetch(site.port, "GET", "/a/escape.ts")
        let missing = try fetch(site.port, "GET", "/a/missing.ts")
        #expect(escape.status == 404 && missing.status == 404)
        #expect(escape.body == missing.body)
        #expect(try fetch(site.port, "GET", "/outside.txt").status == 404)
    }

    @Test func symlinksThatStayInsideAreServed() throws {
        let site = try #require(Self.site)
        let response = try fetch(site.port, "GET", "/a/inside.ts")
        #expect(response.status == 200)
        #expect(response.body == SiteFolder.bytes(count: 2000, seed: 0))
    }

    @Test func theServerStillWorksAfterwards() throws {
        let site = try #require(Self.site)
        #expect(try fetch(site.port, "GET", "/a/master.m3u8").status == 200)
    }
}
