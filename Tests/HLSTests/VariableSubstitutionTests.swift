import Testing

@testable import HLS

/// EXT-X-DEFINE and `{$name}` substitution (RFC 8216bis §4.3).
@Suite struct VariableSubstitutionTests {
    @Test(.enabled(if: Corpus.isAvailable))
    func theDerivedDefineFileResolvesAsTheManifestNotesSay() throws {
        let file = try #require(Corpus.named("derived-define-substitution-v8.m3u8"))
        let result = HLS.parse(file.bytes)
        #expect(result.errors.isEmpty)
        let p = try #require(result.multivariantPlaylist)
        // MANIFEST: v0 uri=https://example.com/sec/video/1.m3u8 codecs=mp4a.40.2,avc1.64001f audio=200k;
        // v1 uri=https://example.com/sec/avc1.64001f/2.m3u8; rendition group_id=200k language=eng
        // uri=https://example.com/200k.m3u8; bar={$foo} resolves to 'ok'.
        #expect(p.variants[0].uri == "https://example.com/sec/video/1.m3u8")
        #expect(p.variants[0].codecs == "mp4a.40.2,avc1.64001f")
        #expect(p.variants[0].audio == "200k")
        #expect(p.variants[1].uri == "https://example.com/sec/avc1.64001f/2.m3u8")
        #expect(p.renditions[0].groupID == "200k" && p.renditions[0].language == "eng")
        #expect(p.renditions[0].uri == "https://example.com/200k.m3u8")
        #expect(p.defines.first { $0.name == "bar" }?.value == "ok")
        #expect(p.variants[0].otherAttributes == [Attribute(name: "NAME", value: .quotedString("ok1"))])
        #expect(p.contentSteering?.serverURI == "https://example.com/steering-manifest.json")
        #expect(p.contentSteering?.pathwayID == "ok-CDN")
        #expect(p.sessionKeys.first?.keyFormat == "com.apple.streamingkeydelivery")
        #expect(p.sessionKeys.first?.keyFormatVersions == "1/2")
        #expect(p.sessionKeys.first?.iv?.bytes == [0, 0, 0, 2])
        #expect(p.sessionData.first?.value == "hmm")
    }

    @Test(.enabled(if: Corpus.isAvailable))
    func aDefinedNameIsSubstitutedInTheSegmentURI() throws {
        let file = try #require(Corpus.named("eyevinn-media-define-name.m3u8"))
        let result = HLS.parse(file.bytes)
        #expect(result.errors.isEmpty)
        #expect(result.mediaPlaylist?.segments.first?.uri == "Value1.ts")
        // Written back untouched, the variable reference is still there.
        let text = PlaylistWriter().write(try #require(result.playlist))
        #expect(text.contains("{$Define1}.ts"))
    }

    @Test func queryParamTakesItsValueFromThePlaylistURI() {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            seg.ts?token={$token}

            """
        let result = HLS.parse(
            text, options: ParseOptions(playlistURI: "https://cdn.example.com/a/index.m3u8?x=1&token=a%2Fb"))
        #expect(result.diagnostics.isEmpty)
        #expect(result.mediaPlaylist?.segments.first?.uri == "seg.ts?token=a/b")
        #expect(result.mediaPlaylist?.defines.first == Define(kind: .queryParameter, name: "token", value: "a/b"))

        let missing = HLS.parse(text, options: ParseOptions(playlistURI: "https://cdn.example.com/a/index.m3u8"))
        #expect(missing.diagnostics.map(\.code) == [.queryParameterNotFound, .undefinedVariable])
        #expect(missing.diagnostics.map(\.location.line) == [3, 6])
    }

    @Test func importTakesItsValueFromTheParentPlaylist() {
        let text =
            "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:IMPORT=\"cdn\"\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttps://{$cdn}/seg.ts\n"
        let result = HLS.parse(text, options: ParseOptions(importedVariables: ["cdn": "cdn2.example.com"]))
        #expect(result.diagnostics.isEmpty)
        #expect(result.mediaPlaylist?.segments.first?.uri == "https://cdn2.example.com/seg.ts")
        let standalone = HLS.parse(text)
        #expect(standalone.diagnostics.map(\.code) == [.importNotFound, .undefinedVariable])
    }

    @Test func importInAMultivariantPlaylistIsAnError() {
        let result = HLS.parse(
            "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n",
            options: ParseOptions(importedVariables: ["x": "1"]))
        #expect(result.diagnostics.map(\.code) == [.importInMultivariant])
        #expect(result.diagnostics.first?.location.line == 2)
    }

    @Test func anUndefinedVariableIsAnErrorAtItsColumnAndIsLeftAsWritten() {
        let result = HLS.parse("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttps://{$host}/a.ts\n")
        #expect(result.diagnostics.map(\.code) == [.undefinedVariable])
        #expect(result.diagnostics.first?.location == SourceLocation(line: 4, column: 9))
        #expect(result.mediaPlaylist?.segments.first?.uri == "https://{$host}/a.ts")
    }

    @Test func defineNeedsExactlyOneOfNameImportAndQueryParam() {
        let both = HLS.parse("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\",QUERYPARAM=\"b\"\n")
        #expect(both.diagnostics.map(\.code) == [.invalidDefine])
        let duplicate = HLS.parse(
            "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"\n")
        #expect(duplicate.diagnostics.map(\.code) == [.duplicateVariable])
        let badName = HLS.parse("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a b\",VALUE=\"1\"\n")
        #expect(badName.diagnostics.map(\.code) == [.invalidVariableName])
    }

    @Test func substitutionCannotGrowWithoutBound() {
        // Each definition doubles the previous one: 2^40 bytes if unbounded.
        var text = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"v0\",VALUE=\"xxxxxxxx\"\n"
        for k in 1...40 { text += "#EXT-X-DEFINE:NAME=\"v\(k)\",VALUE=\"{$v\(k - 1)}{$v\(k - 1)}\"\n" }
        let result = HLS.parse(text, options: ParseOptions(maximumSubstitutedLength: 4096))
        let longest = result.playlist?.media?.defines.compactMap(\.value).map(\.utf8.count).max() ?? 0
        #expect(longest <= 4096 + 8 * 2)
        #expect(result.diagnostics.contains { $0.code == .invalidDefine })
    }

    @Test func definitionsPastTheCountLimitAreReportedOnceAndIgnored() {
        var text = "#EXTM3U\n"
        for k in 0..<30 { text += "#EXT-X-DEFINE:NAME=\"v\(k)\",VALUE=\"\(k)\"\n" }
        text += "#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n{$v5}.ts\n"
        let result = HLS.parse(text, options: ParseOptions(maximumVariableCount: 20))
        #expect(result.playlist?.media?.defines.count == 20)
        #expect(result.diagnostics.filter { $0.code == .invalidDefine }.count == 1)
        #expect(result.playlist?.media?.segments.first?.uri == "5.ts")
    }

    @Test func aChainOfGrowingDefinitionsStopsAtTheSubstitutionBudget() {
        // Each value is the previous one and one more byte: 1 + 2 + … + 2000 ≈ 2 MB if unbounded.
        var text = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"v0\",VALUE=\"x\"\n"
        for k in 1..<2000 { text += "#EXT-X-DEFINE:NAME=\"v\(k)\",VALUE=\"{$v\(k - 1)}x\"\n" }
        let result = HLS.parse(text, options: ParseOptions(maximumSubstitutedBytes: 100_000))
        let produced = result.playlist?.media?.defines.compactMap(\.value).map(\.utf8.count).reduce(0, +) ?? 0
        #expect(produced <= 100_000 + 2000 * 8)
        #expect(result.diagnostics.filter { $0.message.contains("more than 100000 bytes") }.count == 1)
    }

    @Test func manyReferencesToOneLongValueStopAtTheBudget() {
        var text =
            "#EXTM3U\n#EXT-X-DEFINE:NAME=\"long\",VALUE=\"" + String(repeating: "a", count: 1000)
            + "\"\n#EXT-X-TARGETDURATION:4\n"
        for _ in 0..<500 { text += "#EXTINF:4,\n{$long}.ts\n" }
        let result = HLS.parse(text, options: ParseOptions(maximumSubstitutedBytes: 50_000))
        let substituted = result.playlist?.media?.segments.filter { !$0.uri.contains("{$") }.count ?? 0
        #expect(substituted < 500 && substituted >= 48)
        #expect(result.diagnostics.filter { $0.code == .invalidDefine }.count == 1)
    }

    /// Issue 31: the quoted-string BYTERANGE of EXT-X-MAP and EXT-X-PART was read from the raw bytes, so
    /// `BYTERANGE="{$r}"` was an invalid byte range and the range was dropped.
    @Test func theQuotedByteRangesOfMapAndPartAreSubstituted() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-DEFINE:NAME="r",VALUE="718@0"
            #EXT-X-DEFINE:NAME="p",VALUE="1000"
            #EXT-X-TARGETDURATION:4
            #EXT-X-PART-INF:PART-TARGET=1
            #EXT-X-MAP:URI="i.mp4",BYTERANGE="{$r}"
            #EXT-X-PART:DURATION=1,URI="s.mp4",BYTERANGE="{$p}@718"
            #EXTINF:1,
            s.mp4
            #EXT-X-PART:DURATION=1,URI="s.mp4",BYTERANGE="{$nope}"

            """
        let result = HLS.parse(text)
        let media = try #require(result.mediaPlaylist)
        #expect(media.segments[0].map?.byteRange == ByteRange(length: 718, offset: 0))
        #expect(media.segments[0].parts.first?.byteRange == ByteRange(length: 1000, offset: 718))
        // An undefined name is one error at the reference; the value left as written is then no byte range.
        #expect(result.diagnostics.map(\.code) == [.undefinedVariable, .invalidByteRange])
        #expect(result.diagnostics.first?.location == SourceLocation(line: 11, column: 47))
    }

    /// Every quoted-string and hexadecimal-sequence attribute of the media playlist tags takes variables
    /// (RFC 8216bis §4.3), EXT-X-DEFINE's own NAME, IMPORT and QUERYPARAM included.
    @Test func everyQuotedStringAttributeOfAMediaPlaylistIsSubstituted() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:11
            #EXT-X-DEFINE:NAME="v",VALUE="ok"
            #EXT-X-DEFINE:NAME="{$v}-2",VALUE="fine"
            #EXT-X-DEFINE:QUERYPARAM="{$v}"
            #EXT-X-DEFINE:NAME="d",VALUE="2026-01-02T03:04:05Z"
            #EXT-X-DEFINE:NAME="h",VALUE="0A0B"
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,CAN-BLOCK-RELOAD=YES
            #EXT-X-PART-INF:PART-TARGET=1
            #EXT-X-SKIP:SKIPPED-SEGMENTS=1,RECENTLY-REMOVED-DATERANGES="{$v}\tb"
            #EXT-X-KEY:METHOD=AES-128,URI="{$v}.key",IV=0x{$h}0C,KEYFORMAT="{$v}",KEYFORMATVERSIONS="{$v}"
            #EXT-X-MAP:URI="{$v}.mp4"
            #EXT-X-DATERANGE:ID="{$v}",CLASS="{$v}",START-DATE="{$d}",CUE="{$v}",X-COM-A="{$v}"
            #EXTINF:4,
            {$v}.mp4
            #EXT-X-PART:DURATION=1,URI="{$v}.part.mp4"
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="{$v}.hint.mp4"
            #EXT-X-RENDITION-REPORT:URI="{$v}.m3u8",LAST-MSN=1

            """
        let result = HLS.parse(text, options: ParseOptions(playlistURI: "https://example.com/a.m3u8?ok=query"))
        #expect(result.diagnostics.filter { $0.code == .undefinedVariable }.isEmpty, "\(result.diagnostics)")
        let media = try #require(result.mediaPlaylist)
        #expect(media.defines.map(\.name) == ["v", "ok-2", "ok", "d", "h"])
        #expect(media.defines[2].value == "query")
        #expect(media.skip?.recentlyRemovedDateRanges == ["ok", "b"])
        let segment = try #require(media.segments.first)
        let key = try #require(segment.keys.first)
        #expect(key.uri == "ok.key" && key.keyFormat == "ok" && key.keyFormatVersions == "ok")
        #expect(key.iv?.bytes == [0x0A, 0x0B, 0x0C])
        #expect(segment.map?.uri == "ok.mp4")
        let range = try #require(segment.dateRanges.first)
        #expect(range.id == "ok" && range.className == "ok" && range.cue == "ok")
        #expect(range.startDate?.description == "2026-01-02T03:04:05Z")
        #expect(range.clientAttributes == [Attribute(name: "X-COM-A", value: .quotedString("ok"))])
        #expect(segment.uri == "ok.mp4")
        #expect(media.incompleteSegment?.parts.first?.uri == "ok.part.mp4")
        #expect(media.preloadHints.first?.uri == "ok.hint.mp4")
        #expect(media.renditionReports.first?.uri == "ok.m3u8")
    }
}
