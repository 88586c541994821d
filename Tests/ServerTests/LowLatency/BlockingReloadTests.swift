import HLS
import Testing

@testable import Server

/// The pure LL-HLS decisions: delivery directives, blocking reloads, delta updates (RFC 8216bis §6.2.5).
@Suite struct BlockingReloadTests {
    /// Segments 0…2 complete with four parts each, two parts of segment 3 published.
    static func position(ended: Bool = false) -> PlaylistPosition {
        PlaylistPosition(
            lastCompleteSequence: 2, partsInProgress: 2, partCounts: [0: 4, 1: 4, 2: 4], ended: ended,
            targetDurationSeconds: 2, partTargetSeconds: 0.5, canBlockReload: true)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var msn: Int?
        var part: Int?
        var expected: BlockingReload.Decision
        var testDescription: String { "msn \(msn.map(String.init) ?? "-") part \(part.map(String.init) ?? "-")" }
    }

    static let cases: [Case] = [
        Case(msn: nil, part: nil, expected: .answer),
        Case(msn: 2, part: nil, expected: .answer),
        Case(msn: 3, part: nil, expected: .wait),
        Case(msn: 4, part: nil, expected: .wait),
        Case(msn: 3, part: 0, expected: .answer),
        Case(msn: 3, part: 1, expected: .answer),
        Case(msn: 3, part: 2, expected: .wait),
        Case(msn: 2, part: 3, expected: .answer),
        // Past segment 2's last part: part 0 of segment 3, published.
        Case(msn: 2, part: 4, expected: .answer),
        Case(msn: 2, part: 40, expected: .answer),
        Case(msn: 3, part: 7, expected: .wait),
        Case(msn: 4, part: 3, expected: .wait),
        // More than two segments past the last complete one, or more than 6 parts (3 s) ahead.
        Case(
            msn: 5, part: nil,
            expected: .refuse(.badRequest("_HLS_msn=5 is more than two segments past the playlist's last"))),
        Case(
            msn: 3, part: 8, expected: .refuse(.badRequest("_HLS_part=8 is more than 6 parts past the playlist's last"))
        ),
        Case(
            msn: 4, part: 4, expected: .refuse(.badRequest("_HLS_part=4 is more than 6 parts past the playlist's last"))
        ),
    ]

    @Test(arguments: cases)
    func aRequestIsAnsweredHeldOrRefusedByWhereThePlaylistIs(_ testCase: Case) {
        let directives = DeliveryDirectives(mediaSequence: testCase.msn, part: testCase.part)
        #expect(BlockingReload.decide(directives, Self.position()) == testCase.expected)
    }

    @Test func aFinishedPlaylistIgnoresTheDirectives() {
        #expect(
            BlockingReload.decide(DeliveryDirectives(mediaSequence: 9, part: 0), Self.position(ended: true)) == .answer)
    }

    @Test func theAdvancePartLimitIsThreePartTargetsWorth() {
        var position = Self.position()
        #expect(position.advancePartLimit == 6)
        position.partTargetSeconds = 1.2
        #expect(position.advancePartLimit == 3)
        position.partTargetSeconds = 0.33334
        #expect(position.advancePartLimit == 9)
    }

    @Test func directivesAreReadStrictly() {
        #expect(
            DeliveryDirectives.parse(["_HLS_msn": "12", "_HLS_part": "3", "_HLS_skip": "YES"])
                == .success(DeliveryDirectives(mediaSequence: 12, part: 3, skip: .segments)))
        #expect(
            DeliveryDirectives.parse(["_HLS_skip": "v2"]) == .success(DeliveryDirectives(skip: .segmentsAndDateRanges)))
        for bad: [String: String] in [
            ["_HLS_part": "1"], ["_HLS_msn": "-1"], ["_HLS_msn": "1e3"], ["_HLS_msn": ""],
            ["_HLS_msn": "1", "_HLS_part": "x"], ["_HLS_skip": "yes"],
        ] {
            guard case .failure(let refusal) = DeliveryDirectives.parse(bad) else {
                Issue.record("\(bad) accepted")
                continue
            }
            #expect(refusal.status == 400)
        }
    }

    @Test func aDeltaUpdateSkipsWhatLiesPastTheSkipBoundary() throws {
        // Eight 2 s segments and two parts; CAN-SKIP-UNTIL=12: segments whose end lies 12 s or more before the end
        // (17 s of playlist) are skipped: the first two (their ends are 15 and 13 s before it).
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n"
        text += "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12,PART-HOLD-BACK=1.5\n"
        text += "#EXT-X-PART-INF:PART-TARGET=0.5\n#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        text += "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-12-02T00:00:00.000Z\",DURATION=1.0\n"
        for k in 10..<18 { text += "#EXTINF:2.0,\nseg\(k).m4s\n" }
        text +=
            "#EXT-X-PART:DURATION=0.5,URI=\"p18.0.m4s\",INDEPENDENT=YES\n#EXT-X-PART:DURATION=0.5,URI=\"p18.1.m4s\"\n"
        text += "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p18.2.m4s\"\n"
        let playlist = try #require(HLS.parse(text).playlist?.media)
        let delta = try #require(DeltaUpdate.apply(.segments, to: playlist))
        // The header and the first kept segment are written afresh (version, skip, the carried date range).
        var expected = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:10\n"
        expected += "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12.0,PART-HOLD-BACK=1.5,CAN-BLOCK-RELOAD=YES\n"
        expected += "#EXT-X-PART-INF:PART-TARGET=0.5\n#EXT-X-SKIP:SKIPPED-SEGMENTS=2\n"
        expected +=
            "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-12-02T00:00:00.000Z\",DURATION=1.0\n#EXTINF:2.000,\nseg12.m4s\n"
        for k in 13..<18 { expected += "#EXTINF:2.0,\nseg\(k).m4s\n" }
        expected +=
            "#EXT-X-PART:DURATION=0.5,URI=\"p18.0.m4s\",INDEPENDENT=YES\n#EXT-X-PART:DURATION=0.5,URI=\"p18.1.m4s\"\n"
        expected += "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p18.2.m4s\"\n"
        #expect(String(decoding: PlaylistWriter().writeBytes(.media(delta)), as: UTF8.self) == expected)
        // The delta parses back to the same segments the full playlist has from the boundary on.
        let reparsed = try #require(HLS.parse(expected).playlist?.media)
        #expect(
            reparsed.skip?.skippedSegments == 2
                && reparsed.segments.map(\.uri) == playlist.segments.dropFirst(2).map(\.uri))
        #expect(PlaylistValidator.validate(.media(reparsed)).filter { $0.severity == .error }.isEmpty)
    }

    @Test func noDeltaWhenNothingIsOldEnoughOrTheServerOffersNone() throws {
        let short =
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12\n#EXTINF:2.0,\na.m4s\n#EXTINF:2.0,\nb.m4s\n"
        #expect(DeltaUpdate.apply(.segments, to: try #require(HLS.parse(short).playlist?.media)) == nil)
        let none = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + String(repeating: "#EXTINF:2.0,\na.m4s\n", count: 20)
        #expect(DeltaUpdate.apply(.segments, to: try #require(HLS.parse(none).playlist?.media)) == nil)
    }

    @Test func acceptEncodingIsReadWithItsQualities() {
        #expect(AcceptEncoding.allowsGzip("gzip, deflate, br"))
        #expect(AcceptEncoding.allowsGzip("br;q=1.0, gzip;q=0.8"))
        #expect(!AcceptEncoding.allowsGzip("gzip;q=0"))
        #expect(AcceptEncoding.allowsGzip("*"))
        #expect(!AcceptEncoding.allowsGzip("*, gzip;q=0"))
        #expect(!AcceptEncoding.allowsGzip("identity"))
        #expect(!AcceptEncoding.allowsGzip(nil))
    }
}
