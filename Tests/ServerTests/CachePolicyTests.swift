import Testing

@testable import Server

@Suite struct CachePolicyTests {
    @Test(arguments: [(1, 0), (2, 1), (3, 1), (4, 2), (6, 3), (10, 5)])
    func livePlaylistsAreCachedForAtMostHalfTheirTargetDuration(target: Int, maxAge: Int) {
        #expect(
            CachePolicy.cacheControl(for: .playlist, playlist: .media(ended: false, targetDurationSeconds: target))
                == "public, max-age=\(maxAge)")
        #expect(maxAge * 2 <= target)
    }

    @Test func finishedAndMultivariantPlaylistsGetAShortMaxAge() {
        #expect(
            CachePolicy.cacheControl(for: .playlist, playlist: .media(ended: true, targetDurationSeconds: 6))
                == "public, max-age=60")
        #expect(CachePolicy.cacheControl(for: .playlist, playlist: .multivariant) == "public, max-age=10")
        #expect(CachePolicy.cacheControl(for: .playlist, playlist: nil) == "public, max-age=0")
    }

    @Test(arguments: [FileKind.segment, .initSection, .subtitles])
    func mediaFilesAreImmutable(_ kind: FileKind) {
        #expect(CachePolicy.cacheControl(for: kind) == "public, max-age=31536000, immutable")
    }

    @Test func corsExposesRangeHeadersAndVariesOnARestrictedOrigin() {
        let open = CORSPolicy()
        #expect(open.headers.map(\.0) == ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"])
        #expect(open.headers[1].1 == "Content-Length, Content-Range")
        let restricted = CORSPolicy(allowedOrigin: "https://app.example")
        #expect(restricted.headers.contains { $0 == ("Vary", "Origin") })
        #expect(restricted.headers[0].1 == "https://app.example")
    }
}
