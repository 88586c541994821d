import Testing

@testable import Packaging

@Suite struct LadderTests {
    @Test func parsesRungsAndSortsThemByBitRate() throws {
        let ladder = try Ladder.parse("640x360@730k, 1920x1080@6M,1280x720@3000000")
        #expect(
            ladder.renditions == [
                LadderRung(width: 1920, height: 1080, bitsPerSecond: 6_000_000),
                LadderRung(width: 1280, height: 720, bitsPerSecond: 3_000_000),
                LadderRung(width: 640, height: 360, bitsPerSecond: 730_000),
            ])
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var text: String
        var error: LadderError
        var testDescription: String { "'\(text)'" }
    }

    @Test(arguments: [
        BadCase(text: "", error: .empty),
        BadCase(text: "1280x720", error: .malformed("1280x720")),
        BadCase(text: "1280*720@3000k", error: .malformed("1280*720@3000k")),
        BadCase(text: "1280x720@fast", error: .malformed("1280x720@fast")),
        BadCase(text: "1281x720@3000k", error: .oddSize("1281x720@3000k")),
        BadCase(text: "8x8@100k", error: .sizeOutOfRange("8x8@100k")),
        BadCase(text: "1280x720@1k", error: .bitRateOutOfRange("1280x720@1k")),
        BadCase(text: "640x360@700k,640x360@800k", error: .duplicateSize("640x360@800k")),
        BadCase(text: "640x360@700k,", error: .malformed("")),
    ])
    func rejectsMalformedLaddersNamingTheRung(_ bad: BadCase) {
        #expect(throws: bad.error) { try Ladder.parse(bad.text) }
    }

    @Test func defaultLadderFitsA720pSourceUnchanged() {
        #expect(Ladder.standard.fitted(toSourceWidth: 1280, height: 720) == Ladder.standard)
    }

    @Test func renditionsNeverExceedTheSource() {
        let fitted = Ladder.standard.fitted(toSourceWidth: 960, height: 540)
        #expect(fitted.renditions.map(\.description) == ["960x540@2000k", "640x360@730k"])
    }

    /// Even sizes are rounded down where rounding to the nearest even number would pass an odd source side
    /// (a 101×57 camera gave a 102×58 rendition; a 1281×720 source a 1282-wide one).
    @Test(arguments: [(101, 57), (57, 101), (1281, 720), (1281, 721), (641, 361), (17, 17), (1920, 1081)])
    func oddSourceSidesAreNeverExceeded(width: Int, height: Int) {
        let fitted = Ladder.standard.fitted(toSourceWidth: width, height: height)
        #expect(!fitted.renditions.isEmpty)
        for rung in fitted.renditions {
            #expect(rung.width <= width && rung.height <= height, "\(rung) from \(width)x\(height)")
            #expect(rung.width % 2 == 0 && rung.height % 2 == 0, "\(rung)")
        }
    }

    @Test func portraitSourceGivesPortraitRenditions() {
        let fitted = Ladder.standard.fitted(toSourceWidth: 720, height: 1280)
        #expect(fitted.renditions.map(\.description) == ["720x1280@3000k", "540x960@2000k", "360x640@730k"])
    }

    @Test func aspectRatioOfTheSourceIsKeptWithEvenSizes() {
        // 4:3 source: each rung keeps its short side and takes the 4:3 shape.
        let fitted = Ladder.standard.fitted(toSourceWidth: 1440, height: 1080)
        #expect(fitted.renditions.map(\.description) == ["960x720@3000k", "720x540@2000k", "480x360@730k"])
        // An awkward ratio still gives even sizes.
        let odd = Ladder([LadderRung(width: 640, height: 360, bitsPerSecond: 730_000)])
            .fitted(toSourceWidth: 1000, height: 562)
        #expect(odd.renditions.allSatisfy { $0.width % 2 == 0 && $0.height % 2 == 0 })
        #expect(odd.renditions.first?.height == 360)
    }

    @Test func sourceSmallerThanEveryRungGivesOneRenditionAtSourceSize() {
        let fitted = Ladder.standard.fitted(toSourceWidth: 320, height: 180)
        #expect(fitted.renditions.count == 1)
        #expect(fitted.renditions[0].width == 320 && fitted.renditions[0].height == 180)
        #expect(fitted.renditions[0].bitsPerSecond == 730_000 / 4)
    }

    @Test func renditionNamesUseTheShortSide() {
        #expect(LadderRung(width: 720, height: 1280, bitsPerSecond: 1).name == "720p")
        #expect(LadderRung(width: 320, height: 180, bitsPerSecond: 1).name == "180p")
    }
}
