import FilterzTestSupport
import Parallel
import Testing

@testable import HLS

/// A playlist read in two halves at once (`ParseOptions.parallel`) gives exactly the one pass's result: the
/// model, every source position, the tag occurrences and the diagnostics, whatever the cut. The validator's
/// rules on two threads find what they find on one.
@Suite struct HalvesAgreementTests {
    /// Both results, everything the parser produces compared (sources take no part in `==`, so they are
    /// compared here one by one).
    static func expectSame(_ halves: ParseResult, _ onePass: ParseResult, _ context: @autoclosure () -> String) {
        #expect(halves.diagnostics == onePass.diagnostics, "\(context())")
        #expect(halves.playlist == onePass.playlist, "\(context())")
        #expect(sources(halves.playlist) == sources(onePass.playlist), "\(context())")
        let a = halves.playlist?.parseInfo, b = onePass.playlist?.parseInfo
        #expect(a?.tagOccurrences == b?.tagOccurrences, "\(context())")
        #expect(a?.lenientValues == b?.lenientValues, "\(context())")
        #expect(a?.tagsLackingRequiredAttributes == b?.tagsLackingRequiredAttributes, "\(context())")
        #expect(
            a?.lineCount == b?.lineCount && a?.usesCRLF == b?.usesCRLF && a?.byteCount == b?.byteCount, "\(context())")
        #expect(a?.extm3uLocation == b?.extm3uLocation && a?.startsWithEXTM3U == b?.startsWithEXTM3U, "\(context())")
    }

    /// Every source span of a media playlist's segments and the elements they carry, in order.
    static func sources(_ playlist: Playlist?) -> [SourceSpan?] {
        guard case .media(let media)? = playlist else { return [] }
        var spans: [SourceSpan?] = media.verbatimLines.map(\.source) + media.trailingVerbatimLines.map(\.source)
        for segment in media.segments + (media.incompleteSegment.map { [$0] } ?? []) {
            spans.append(segment.source)
            spans += segment.keys.map(\.source) + [segment.map?.source] + segment.parts.map(\.source)
            spans += segment.dateRanges.map(\.source) + segment.verbatimLines.map(\.source)
        }
        return spans
    }

    static let threads = ParallelPair(run: Alongside.run)

    /// The offsets just after each LF (the places a cut may be).
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        bytes.indices.filter { bytes[$0] == 0x0A && $0 + 1 < bytes.count }.map { $0 + 1 }
    }

    static let lines: [String] = [
        "#EXTINF:6.006,", "#EXTINF:4,title", "#EXTINF:-1,", "#EXTINF:x,", "#EXTINF:5", "seg.ts", "a/b.ts?x=1",
        " spaced.ts", "#EXT-X-BYTERANGE:100@0", "#EXT-X-BYTERANGE:50", "#EXT-X-BYTERANGE:z",
        "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z", "#EXT-X-PROGRAM-DATE-TIME:yesterday",
        "#EXT-X-DISCONTINUITY", "#EXT-X-GAP", "#EXT-X-BITRATE:800", "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"",
        "#EXT-X-KEY:METHOD=NONE", "#EXT-X-MAP:URI=\"init.mp4\"", "#EXT-X-PART:DURATION=1,URI=\"p.mp4\"",
        "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:00Z\"", "#EXT-X-ENDLIST", "# a comment",
        "#EXT-X-UNKNOWN:1", "", "\r", "#EXT-X-TARGETDURATION:6", "#EXT-X-VERSION:7", "#EXT-X-MEDIA-SEQUENCE:3",
        "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"1\"", "s{$v}.ts", "u{$undefined}.ts", "#EXT-X-STREAM-INF:BANDWIDTH=1",
        "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"h.mp4\"", "#EXTM3U", "tab\there.ts", "#EXT-X-INDEPENDENT-SEGMENTS",
    ]

    /// Seeded random playlists, mostly segments with now and then any other line, cut at every line start,
    /// with the diagnostic limit high and low (so the halves' diagnostics together overflow it sometimes).
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func everyCutOfRandomPlaylistsGivesTheOnePassResult(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var kept = 0, cuts = 0
        for round in 0..<60 {
            var text = round % 7 == 0 ? "" : "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
            for _ in 0..<Int.random(in: 1...25, using: &random) {
                if Int.random(in: 0..<4, using: &random) == 0 {
                    text += Self.lines.randomElement(using: &random)!
                } else {
                    text += "#EXTINF:6,\nseg\(Int.random(in: 0..<100, using: &random)).ts"
                }
                text += Bool.random(using: &random) && Int.random(in: 0..<8, using: &random) == 0 ? "\r\n" : "\n"
            }
            if Bool.random(using: &random) { text.removeLast() }  // no LF at the end, sometimes
            let bytes = Array(text.utf8)
            if let playlist = HLS.parse(bytes).playlist {
                let alone = PlaylistValidator.validate(playlist)
                #expect(PlaylistValidator.validate(playlist, parallel: .sequential) == alone, "\(text)")
                #expect(PlaylistValidator.validate(playlist, parallel: Self.threads) == alone, "\(text)")
            }
            for limit in [1000, 3] {
                let options = ParseOptions(maximumDiagnosticCount: limit)
                let onePass = HLS.parse(bytes, options: options)
                for cut in Self.lineStarts(bytes) {
                    let (halves, keptSecondHalf) = PlaylistParser.parse(bytes, options: options, cutAt: cut)
                    Self.expectSame(halves, onePass, "seed \(seed) round \(round) cut \(cut) limit \(limit): \(text)")
                    cuts += 1
                    if keptSecondHalf { kept += 1 }
                }
            }
        }
        // The cuts after a plain segment keep the second half: most do, so the halves' own path is exercised.
        #expect(kept > cuts / 10, "\(kept) of \(cuts) cuts kept the second half")
    }

    /// What the second half cannot know, just before a cut: a variable used after it, a URI line without
    /// EXTINF, errors on both sides of it (strict mode stops at the first; a low limit drops some), a header
    /// tag or a misplaced multivariant tag after it, no LF at the end.
    @Test(arguments: [
        "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"1\"\n#EXTINF:6,\na.ts\n#EXTINF:6,\ns{$v}.ts\n#EXTINF:6,\nb{$v}.ts",
        "#EXTINF:6,\na.ts\nno-extinf.ts\n#EXTINF:6,\nb.ts\n#EXTINF:x,\nc.ts\n",
        "#EXTINF:x,\na.ts\n#EXTINF:y,\nb.ts\n#EXTINF:z,\nc.ts\n#EXT-X-BYTERANGE:q\n#EXTINF:w,\nd.ts\n",
        "#EXTINF:6,\na.ts\n#EXT-X-TARGETDURATION:4\n#EXTINF:6,\nb.ts\n#EXT-X-STREAM-INF:BANDWIDTH=1\nc.ts\n",
        "#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n#EXTINF:6,",
        "#EXTINF: 4.5,\na.ts\n#EXT-X-BITRATE:1.5\n#EXTINF:6s,\nb.ts\n#EXT-X-PART:URI=\"p\",DURATION=x1\n#EXTINF:6,\nc.ts\n",
    ])
    func everyCutOfAnAwkwardPlaylistGivesTheOnePassResult(body: String) {
        let bytes = Array(("#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + body).utf8)
        for options in [ParseOptions(), ParseOptions(maximumDiagnosticCount: 3), ParseOptions(strict: true)] {
            let onePass = HLS.parse(bytes, options: options)
            for cut in Self.lineStarts(bytes) {
                let (halves, _) = PlaylistParser.parse(bytes, options: options, cutAt: cut)
                Self.expectSame(
                    halves, onePass, "cut \(cut), strict \(options.strict), limit \(options.maximumDiagnosticCount)")
            }
        }
    }

    /// A long VOD playlist like `filterz-bench parse`'s, read on two threads: the second half is kept and the
    /// result is the one pass's; with an EXT-X-DEFINE (or any header tag) after the cut, it is dropped and the
    /// result is still the one pass's.
    @Test(arguments: [false, true])
    func aLongPlaylistOnTwoThreadsGivesTheOnePassResult(defineAfterTheCut: Bool) {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        var offset = 0
        for index in 0..<12_000 {
            if index % 1_000 == 0 { text += "#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI=\"init_\(index).mp4\"\n" }
            if index % 100 == 0 { text += "#EXT-X-KEY:METHOD=AES-128,URI=\"k/\(index)\",IV=0x\(index + 1000)\n" }
            if defineAfterTheCut && index == 9_000 { text += "#EXT-X-DEFINE:NAME=\"late\",VALUE=\"x\"\n" }
            text += "#EXT-X-PROGRAM-DATE-TIME:2026-12-03T10:\(10 + index / 600 % 50):\(10 + index / 10 % 50).000Z\n"
            text += "#EXT-X-BYTERANGE:\(1000 + index % 77)@\(offset)\n#EXTINF:6.006,\nmedia_\(index / 500).mp4\n"
            offset += 1000 + index % 77
        }
        text += "#EXT-X-ENDLIST\n"
        let bytes = Array(text.utf8)
        #expect(bytes.count >= PlaylistParser.minimumBytesForHalves)
        let onePass = HLS.parse(bytes)
        var kept = false
        let parser = PlaylistParser(bytes: bytes, options: ParseOptions(parallel: Self.threads))
        let halves = parser.run { kept = $0 }
        #expect(kept == !defineAfterTheCut)
        Self.expectSame(halves, onePass, "defineAfterTheCut \(defineAfterTheCut)")
        #expect(halves.playlist?.media?.segments.count == 12_000)
        if let playlist = halves.playlist {
            #expect(
                PlaylistValidator.validate(playlist, parallel: Self.threads) == PlaylistValidator.validate(playlist))
        }
    }
}
