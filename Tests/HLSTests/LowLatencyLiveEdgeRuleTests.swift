import HLS
import Testing

@Suite struct LowLatencyLiveEdgeRuleTests {
    /// A valid live LL playlist; `edit` manufactures one defect.
    static func playlist(_ edit: (inout [String]) -> Void = { _ in }) -> [UInt8] {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12,HOLD-BACK=6,PART-HOLD-BACK=1.5,CAN-BLOCK-RELOAD=YES",
            "#EXT-X-PART-INF:PART-TARGET=0.5", "#EXT-X-MAP:URI=\"init.mp4\"",
            "#EXT-X-PART:DURATION=0.5,URI=\"s0.p0.m4s\",INDEPENDENT=YES", "#EXT-X-PART:DURATION=0.5,URI=\"s0.p1.m4s\"",
            "#EXT-X-PART:DURATION=0.5,URI=\"s0.p2.m4s\"", "#EXT-X-PART:DURATION=0.3,URI=\"s0.p3.m4s\"",
            "#EXTINF:1.8,", "s0.m4s",
            "#EXT-X-PART:DURATION=0.5,URI=\"s1.p0.m4s\",INDEPENDENT=YES",
            "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s1.p1.m4s\"",
        ]
        edit(&lines)
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func codes(_ bytes: [UInt8]) -> [DiagnosticCode] { parseAndValidate(bytes).diagnostics.map(\.code) }

    @Test func aValidLivePlaylistHasNoProblem() {
        #expect(Self.codes(Self.playlist()).isEmpty)
    }

    @Test func aShortPartInsideItsSegmentIsAnError() {
        let bytes = Self.playlist { $0[8] = "#EXT-X-PART:DURATION=0.4,URI=\"s0.p1.m4s\"" }
        #expect(Self.codes(bytes) == [.partBelowPartTarget])
    }

    @Test func aSecondPartHintIsAnError() {
        let bytes = Self.playlist { $0.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s1.p2.m4s\"") }
        #expect(Self.codes(bytes) == [.preloadHintDuplicate])
    }

    @Test func aHintForAListedPartIsAnError() {
        let bytes = Self.playlist { $0[14] = "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s1.p0.m4s\"" }
        #expect(Self.codes(bytes) == [.preloadHintAlreadyListed])
    }

    @Test func aHintAfterEndListIsAWarning() {
        let bytes = Self.playlist { $0.insert("#EXT-X-ENDLIST", at: 14) }
        let diagnostics = parseAndValidate(bytes).diagnostics
        #expect(diagnostics.map(\.code) == [.preloadHintAfterEndList])
        #expect(diagnostics.first?.severity == .warning)
    }

    @Test func aLivePlaylistWithPartsButNoBlockingReloadIsAnError() {
        let bytes = Self.playlist { $0[4] = "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12,HOLD-BACK=6,PART-HOLD-BACK=1.5" }
        #expect(Self.codes(bytes) == [.canBlockReloadMissing])
    }
}
