import Testing

@testable import Server

@Suite struct PathGuardTests {
    @Test(arguments: [
        ("/", [String]()), ("/a/b.ts", ["a", "b.ts"]), ("//a///b", ["a", "b"]),
        ("/a%20b/c%2Bd", ["a b", "c+d"]), ("/%E2%9C%93.m3u8", ["✓.m3u8"]), ("/a/%252e%252e", ["a", "%2e%2e"]),
        ("/a..b/c", ["a..b", "c"]), ("/a/b.", ["a", "b."]),
    ])
    func acceptsOrdinaryPathsAndDecodesOnce(raw: String, segments: [String]) {
        #expect(PathGuard.check(raw) == .success(segments))
    }

    @Test(arguments: [
        "/../etc/passwd", "/a/../../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2e/x", "/a/%2e%2e%2fetc",
        "/a%2fb", "/a%2Fb", "/a%00.ts", "/a%5c..%5cb", "/a\\..\\b", "/a/./b", "/%2e/b", "a/b", "", "/a%zz",
        "/a%2", "/a%", "/a\u{01}b", "/%ff%fe", "/a\tb",
    ])
    func rejectsTraversalEscapesAndControlBytes(_ raw: String) {
        guard case .failure(.badRequest) = PathGuard.check(raw) else {
            Issue.record("\(raw) was not rejected as a bad request: \(PathGuard.check(raw))")
            return
        }
    }

    @Test(arguments: ["/.git/config", "/a/.hidden.ts", "/%2eenv", "/a/.b/c"])
    func hiddenFilesAreNotFound(_ raw: String) {
        #expect(PathGuard.check(raw) == .failure(.notFound))
    }

    @Test func longPathsAreTooLong() {
        #expect(PathGuard.check("/" + String(repeating: "a", count: 3000)) == .failure(.tooLong))
        #expect(PathGuard.check("/" + String(repeating: "a", count: 100), maximumBytes: 50) == .failure(.tooLong))
    }
}
