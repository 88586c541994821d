import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import HLS

/// The shared corpus against `parseAndValidate` and the facts JSON: python m3u8's answers where they are the
/// spec's, the MANIFEST notes' answers where they are not, and an error on the named line of every invalid file.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus (set FILTERZ_SHARED)"))
struct CorpusConformanceTests {
    /// Where our facts deliberately differ from python m3u8's expected JSON, with the reason.
    /// Paths are `key.index.key`; the value is what the spec (the MANIFEST note) says.
    static let specAnswers: [String: [(path: String, value: ExpectedJSON, why: String)]] = [
        // Note: "by its tags this is a Multivariant Playlist" (m3u8 says media because it has no STREAM-INF).
        "rfc8216-8.8-session-data.m3u8": [
            ("kind", .string("master"), "only multivariant tags"),
            ("media_sequence", .null, "a multivariant playlist has no media sequence"),
        ],
        // Note: "segment URI after substitution: Value1.ts" (m3u8 has no EXT-X-DEFINE support).
        "eyevinn-media-define-name.m3u8": [("segments.0.uri", .string("Value1.ts"), "EXT-X-DEFINE substitution")],
        // Note: "spec: v0 uri=https://example.com/sec/video/1.m3u8 codecs=mp4a.40.2,avc1.64001f audio=200k; v1
        // uri=https://example.com/sec/avc1.64001f/2.m3u8; rendition group_id=200k language=eng
        // uri=https://example.com/200k.m3u8".
        "derived-define-substitution-v8.m3u8": definedValues,
        // Note: "spec values as in derived-define-substitution-v8" (invalid only for its missing EXT-X-VERSION).
        "hlsjs-define-substitution-master.m3u8": definedValues,
        // Invalid files: m3u8's lenient answers where a strict reading gives another value.
        // CODECS quote not closed: we keep the text up to the end of the line, m3u8 gives ''.
        "derived-unterminated-quote.m3u8": [
            ("variants.1.codecs", .string("avc1.640029,mp4a.40.2"), "unterminated quote runs to end of line")
        ],
        // '587500@' is not length[@offset]: we drop the byte range (reported), m3u8 keeps the length.
        "videojs-byterange-bad-offsets.m3u8": [("segments.0.byterange", .null, "invalid byte range dropped")],
        // The EXTINF title is a TAB (a forbidden control character, reported); we keep it as written.
        "videojs-fmp4-tab-title.m3u8": [
            ("segments.0.title", .string("\t"), "title kept verbatim"),
            ("segments.1.title", .string("\t"), "title kept verbatim"),
        ],
    ]

    static let definedValues: [(path: String, value: ExpectedJSON, why: String)] = [
        ("variants.0.uri", .string("https://example.com/sec/video/1.m3u8"), "substituted"),
        ("variants.0.codecs", .string("mp4a.40.2,avc1.64001f"), "substituted"),
        ("variants.0.audio", .string("200k"), "substituted"),
        ("variants.1.uri", .string("https://example.com/sec/avc1.64001f/2.m3u8"), "substituted"),
        ("variants.1.codecs", .string("mp4a.40.2,avc1.64001f"), "substituted"),
        ("renditions.0.group_id", .string("200k"), "substituted"),
        ("renditions.0.language", .string("eng"), "substituted"),
        ("renditions.0.uri", .string("https://example.com/200k.m3u8"), "substituted"),
    ]

    static var filesWithExpectedJSON: [Corpus.File] {
        Corpus.files.filter { expectedURL(for: $0) != nil }
    }

    static func expectedURL(for file: Corpus.File) -> URL? {
        guard let folder = SharedData.folder("corpus/expected") else { return nil }
        let url = folder.appendingPathComponent(file.name.replacingOccurrences(of: ".m3u8", with: ".json"))
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    @Test(arguments: filesWithExpectedJSON)
    func factsMatchTheExpectedJSONFieldByField(_ file: Corpus.File) throws {
        var expected = try ExpectedJSON.read(try #require(Self.expectedURL(for: file)))
        for answer in Self.specAnswers[file.name] ?? [] { expected.set(answer.path, to: answer.value) }
        let result = parseAndValidate(file.bytes)
        let playlist = try #require(result.playlist, "lenient parse returns a playlist")
        var ours = ExpectedJSON(playlist.facts())
        // Python m3u8 gives null for an absent EXT-X-DISCONTINUITY-SEQUENCE; the spec default (ours) is 0.
        if case .object(let members) = expected, members["discontinuity_sequence"] == .null,
            members["kind"] == .string("media")
        {
            ours.set("discontinuity_sequence", to: .null)
        }
        let differences = expected.differences(from: ours)
        #expect(differences.isEmpty, "\(file.name): \(differences.prefix(5).joined(separator: "; "))")
    }

    @Test func theDiscontinuitySequenceDefaultsToZeroWhenTheTagIsAbsent() throws {
        let file = try #require(Corpus.named("rfc8216-8.1-simple-media.m3u8"))
        let facts = try #require(parseAndValidate(file.bytes).playlist).facts()
        #expect(facts["discontinuity_sequence"] == .integer(0))
        #expect(facts["media_sequence"] == .integer(0))
    }

    @Test(arguments: Corpus.valid)
    func validFilesHaveNoErrors(_ file: Corpus.File) {
        let result = parseAndValidate(file.bytes)
        #expect(result.playlist != nil)
        let errors = result.errors.map { $0.formatted(file: file.name) }
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    }

    /// For each invalid file, the lines (per its MANIFEST note) that must each carry at least one error.
    static let invalidLines: [String: [Int]] = [
        "apple-ll-byterange-parts.m3u8": [4, 12],  // PART-HOLD-BACK < 2 × PART-TARGET; unquoted BYTERANGE
        "m3u8py-bandwidth-float.m3u8": [2, 4],  // BANDWIDTH is a decimal-integer
        "m3u8py-junk-line.m3u8": [5],  // URI line without EXTINF
        "m3u8py-commaless-extinf.m3u8": [3],  // EXTINF comma is REQUIRED
        "m3u8py-title-with-comma.m3u8": [1],  // missing EXT-X-TARGETDURATION: reported at #EXTM3U
        "m3u8py-session-key-in-media.m3u8": [5],  // SESSION-KEY is multivariant-only
        "m3u8py-groups-undeclared.m3u8": [2, 4],  // AUDIO/SUBTITLES/CLOSED-CAPTIONS groups undefined
        "m3u8py-ll-unquoted-part-byterange.m3u8": [1, 4],  // no TARGETDURATION; unquoted BYTERANGE
        "m3u8py-iptv-extinf-attrs.m3u8": [1, 4],  // no TARGETDURATION; EXTINF not a duration
        "m3u8py-media-no-uri.m3u8": [4],  // SUBTITLES="textstream" undefined
        "m3u8py-delta-skip-dateranges.m3u8": [20, 21],  // DATERANGE without START-DATE
        "videojs-llhls.m3u8": [5],  // CAN-SKIP-UNTIL < 6 × TARGETDURATION
        "videojs-llhls-delta.m3u8": [5, 8],  // CAN-SKIP-UNTIL; unquoted RECENTLY-REMOVED-DATERANGES
        "videojs-byterange-bad-offsets.m3u8": [7, 13],  // '587500@'; offset omitted on a new resource
        "videojs-no-extm3u.m3u8": [1],  // missing #EXTM3U
        "videojs-uri-without-extinf.m3u8": [6, 8],  // EXTINF without comma; URI without EXTINF
        "videojs-negative-targetduration.m3u8": [2],
        "videojs-whitespace.m3u8": [4, 6, 8, 10, 12],  // whitespace outside quoted strings
        "videojs-negative-media-sequence.m3u8": [3],
        "videojs-targetduration-nan.m3u8": [2, 6],  // NaN; TAB after the EXTINF comma
        "videojs-stream-inf-invalid.m3u8": [2, 3, 5],  // comment before #EXTM3U; no BANDWIDTH
        "videojs-fmp4-tab-title.m3u8": [8, 11],  // TAB title
        "eyevinn-master-defines-leading-comma.m3u8": [4, 11],  // QUERYPARAM unresolvable; leading comma
        "eyevinn-master-define-import.m3u8": [3],  // IMPORT in a multivariant playlist
        "eyevinn-media-queryparam-import.m3u8": [5, 6],  // standalone: QUERYPARAM and IMPORT unresolvable
        "eyevinn-gap-without-extinf.m3u8": [7],  // URI without EXTINF
        "eyevinn-iframes-only-no-extinf.m3u8": [1, 6],  // no TARGETDURATION; URI without EXTINF
        "mamba-master-stream-inf-uri-attr.m3u8": [6],  // STREAM-INF without URI line
        "hlsjs-define-substitution-master.m3u8": [2],  // EXT-X-DEFINE needs EXT-X-VERSION 8
        "derived-bom.m3u8": [1],
        "derived-truncated.m3u8": [15],  // unterminated quoted-string
        "derived-unterminated-quote.m3u8": [4],
        "derived-negative-extinf.m3u8": [8],
        "derived-extinf-over-target.m3u8": [4],  // 9.009 rounds to 9 > 8
        "derived-version-too-low.m3u8": [5],  // BYTERANGE needs version 4
        "derived-blank-before-extm3u.m3u8": [2],  // #EXTM3U not first
    ]

    @Test func everyInvalidFileHasItsExpectedLines() {
        let invalid = Corpus.files.filter { !$0.isValid }.map(\.name)
        #expect(Set(invalid) == Set(Self.invalidLines.keys))
    }

    @Test(arguments: Corpus.files.filter { !$0.isValid })
    func invalidFilesHaveAnErrorOnEachNamedLine(_ file: Corpus.File) {
        let errorLines = Set(parseAndValidate(file.bytes).errors.map(\.location.line))
        for line in Self.invalidLines[file.name] ?? [] {
            #expect(
                errorLines.contains(line), "\(file.name): no error on line \(line); errors on \(errorLines.sorted())")
        }
    }

    @Test(arguments: Corpus.files.filter { !$0.isValid })
    func aStrictParseOfAnInvalidFileFails(_ file: Corpus.File) {
        let result = parseAndValidate(file.bytes, options: ParseOptions(strict: true))
        #expect(result.playlist == nil)
        #expect(result.diagnostics.last?.severity == .error)
    }

    @Test func eyevinnMediaPlaylistIsValidWithItsParentsContext() throws {
        // MANIFEST: valid only when loaded via a parent that defines Define3 and a URI with ?Define2=.
        let file = try #require(Corpus.named("eyevinn-media-queryparam-import.m3u8"))
        let options = ParseOptions(
            playlistURI: "https://cdn.example.com/media.m3u8?Define2=two", importedVariables: ["Define3": "three"])
        let result = parseAndValidate(file.bytes, options: options)
        #expect(result.errors.isEmpty, "\(result.errors)")
    }
}
