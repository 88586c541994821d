import Testing

@testable import HLS

@Suite struct VariantAlignmentTests {
    static func media(_ durations: [Double], target: Int = 6, discontinuityAt: Int? = nil, sequence: Int = 0)
        -> MediaPlaylist
    {
        var playlist = MediaPlaylist(version: 3, targetDuration: target, mediaSequence: sequence, endList: true)
        playlist.segments = durations.enumerated().map {
            Segment(uri: "s\($0.offset).ts", duration: $0.element, discontinuity: $0.offset == discontinuityAt)
        }
        return playlist
    }

    static func variant(_ uri: String) -> ReferencedPlaylist.Reference {
        .variant(Variant(uri: uri, bandwidth: 1))
    }

    @Test func alignedVariantsPass() {
        let a = ReferencedPlaylist(reference: Self.variant("a"), playlist: Self.media([6, 6, 3], discontinuityAt: 1))
        let b = ReferencedPlaylist(reference: Self.variant("b"), playlist: Self.media([6, 6, 3], discontinuityAt: 1))
        #expect(VariantAlignment.check([a, b]) == [])
    }

    @Test func differentTargetDurationsAreAnErrorExceptForSubtitles() {
        let a = ReferencedPlaylist(reference: Self.variant("a"), playlist: Self.media([6, 6]))
        let b = ReferencedPlaylist(reference: Self.variant("b"), playlist: Self.media([6, 6], target: 8))
        let subs = ReferencedPlaylist(
            reference: .rendition(Rendition(type: .subtitles, groupID: "s", name: "ko", uri: "ko.m3u8")),
            playlist: Self.media([6, 6], target: 30))
        let found = VariantAlignment.check([a, b, subs])
        #expect(found.map(\.code) == [VariantAlignment.targetDurationMismatch])
        #expect(found.first?.severity == .error)
    }

    @Test func discontinuitiesThatDoNotLineUpAreAnError() {
        let a = ReferencedPlaylist(reference: Self.variant("a"), playlist: Self.media([6, 6, 6], discontinuityAt: 1))
        let b = ReferencedPlaylist(reference: Self.variant("b"), playlist: Self.media([6, 6, 6], discontinuityAt: 2))
        #expect(VariantAlignment.check([a, b]).map(\.code) == [VariantAlignment.discontinuityMismatch])
    }

    @Test func segmentCountsAndDurationsThatDisagreeAreWarnings() {
        let a = ReferencedPlaylist(reference: Self.variant("a"), playlist: Self.media([6, 6, 6]))
        let shorter = ReferencedPlaylist(reference: Self.variant("b"), playlist: Self.media([6, 6]))
        let longer = ReferencedPlaylist(reference: Self.variant("c"), playlist: Self.media([6, 6, 6]))
        var stretched = longer
        stretched.playlist.segments[2].duration = 13.5
        stretched.playlist.targetDuration = 6
        let found = VariantAlignment.check([a, shorter, stretched])
        #expect(found.map(\.code) == [VariantAlignment.segmentCountMismatch, VariantAlignment.durationMismatch])
        #expect(found.allSatisfy { $0.severity == .warning })
    }
}
