import Notation
import Testing

@testable import HLS

/// Values the grammar allows but no player can use are errors (`PlayerLimits`); values at the limits are not.
@Suite struct PlayerLimitTests {
    static let header = "#EXTM3U\n#EXT-X-VERSION:9\n"

    static func codes(_ text: String) -> [DiagnosticCode] {
        parseAndValidate(Array(text.utf8)).diagnostics.map(\.code)
    }

    static func media(sequence: Int, segments: Int = 1, target: Int = 4) -> String {
        header + "#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
            + String(repeating: "#EXTINF:4,\na.ts\n", count: segments)
    }

    @Test(arguments: [Int.max, Int.max - 1, PlayerLimits.maximumSequenceNumber - 1])
    func aMediaSequenceNumberingSegmentsPastTheLimitIsAnError(_ sequence: Int) throws {
        let result = parseAndValidate(Array(Self.media(sequence: sequence).utf8))
        let finding = try #require(result.diagnostics.first { $0.code == .mediaSequenceTooLarge })
        #expect(finding.severity == .error && finding.location.line == 4)
    }

    @Test func theFurthestNumberAClientMayAskForMayBeTheLimit() {
        // One segment: the next but one is the furthest a blocking reload may name.
        let sequence = PlayerLimits.maximumSequenceNumber - 2
        #expect(!Self.codes(Self.media(sequence: sequence)).contains(.mediaSequenceTooLarge))
        #expect(Self.codes(Self.media(sequence: sequence, segments: 2)).contains(.mediaSequenceTooLarge))
        var playlist = MediaPlaylist(targetDuration: 4, mediaSequence: sequence)
        playlist.segments = [Segment(uri: "a.ts", duration: 4)]
        #expect(playlist.furthestMediaSequenceNumber == PlayerLimits.maximumSequenceNumber)
        playlist.mediaSequence = Int.max - 1
        #expect(playlist.furthestMediaSequenceNumber == nil)
    }

    @Test func aDiscontinuitySequencePastTheLimitIsAnError() {
        let limit = PlayerLimits.maximumSequenceNumber
        func playlist(_ sequence: Int) -> String {
            Self.header + "#EXT-X-TARGETDURATION:4\n#EXT-X-DISCONTINUITY-SEQUENCE:\(sequence)\n#EXTINF:4,\na.ts\n"
                + "#EXT-X-DISCONTINUITY\n#EXTINF:4,\nb.ts\n"
        }
        #expect(!Self.codes(playlist(limit - 1)).contains(.discontinuitySequenceTooLarge))
        #expect(Self.codes(playlist(limit)).contains(.discontinuitySequenceTooLarge))
        #expect(Self.codes(playlist(Int.max)).contains(.discontinuitySequenceTooLarge))
    }

    @Test func targetDurationsPastAPlayersTimerAreErrors() {
        let limit = PlayerLimits.maximumTargetDurationSeconds
        #expect(!Self.codes(Self.media(sequence: 0, target: limit)).contains(.targetDurationTooLarge))
        for target in [limit + 1, 10_000_000_000_000_000, Int.max] {
            #expect(Self.codes(Self.media(sequence: 0, target: target)).contains(.targetDurationTooLarge))
        }
        func parts(_ target: String) -> String {
            Self.header + "#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=\(target)\n"
                + "#EXT-X-PART:DURATION=1.0,URI=\"p.mp4\"\n#EXTINF:4,\na.mp4\n"
        }
        #expect(!Self.codes(parts("\(limit)")).contains(.partTargetTooLarge))
        #expect(Self.codes(parts("\(limit).5")).contains(.partTargetTooLarge))
        #expect(Self.codes(parts("1" + String(repeating: "0", count: 400))).contains(.partTargetTooLarge))
    }

    @Test func aMinimumTargetDurationSaturates() {
        var playlist = MediaPlaylist()
        playlist.segments = [Segment(uri: "a.ts", duration: 1e300)]
        #expect(playlist.minimumTargetDuration == Int.max)
        playlist.segments = [Segment(uri: "a.ts", duration: .infinity)]
        #expect(playlist.minimumTargetDuration == Int.max)
        #expect(Int(saturating: .nan) == 0 && Int(saturating: -1e300) == Int.min && Int(saturating: 2.9) == 2)
    }

    @Test func civilDatesSplitEverySecondCount() {
        #expect(CivilDate.split(secondsSinceEpoch: -1) == (-1, 86_399))
        #expect(CivilDate.split(secondsSinceEpoch: -86_400) == (-1, 0))
        let (days, second) = CivilDate.split(secondsSinceEpoch: Int.min)
        #expect(days == Int.min / 86_400 - 1 && second == Int.min % 86_400 + 86_400)
    }
}
