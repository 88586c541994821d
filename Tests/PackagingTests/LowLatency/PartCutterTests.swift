import Testing

@testable import Packaging

@Suite struct PartCutterTests {
    static func frame(_ n: Int64) -> Timestamp { Timestamp(n, timescale: 30) }

    @Test func tenFramePartsEndAfterTheFrameThatReachesEachBoundary() {
        var cutter = PartCutter(partDuration: Self.frame(10), gridOrigin: .zero)
        let ends = (1...30).filter { cutter.packetEnded(at: Self.frame(Int64($0))) }
        #expect(ends == [10, 20, 30])
    }

    @Test func aGridWithoutOriginStartsAtTheFirstPacket() {
        var cutter = PartCutter(partDuration: Self.frame(10))
        cutter.begin(at: Self.frame(5))
        let early = cutter.packetEnded(at: Self.frame(14))
        let onTime = cutter.packetEnded(at: Self.frame(15))
        #expect(!early && onTime)
        #expect(cutter.nextBoundaryTime == Self.frame(25))
    }

    @Test func audioFramesOffTheGridEndAPartAtTheFirstFrameEndPastTheBoundary() {
        // 1024-sample AAC frames at 48 kHz against 1/3 s parts: each part lasts within one frame of 1/3 s.
        var cutter = PartCutter(partDuration: Timestamp(1, timescale: 3), gridOrigin: .zero)
        var ends: [Timestamp] = []
        for n in 1...100 {
            let end = Timestamp(Int64(n * 1024), timescale: 48_000)
            if cutter.packetEnded(at: end) { ends.append(end) }
        }
        let durations = zip([Timestamp.zero] + ends, ends).map { ($1 - $0).seconds }
        #expect(ends.count == 6)
        #expect(durations.allSatisfy { abs($0 - 1.0 / 3) < 1024.0 / 48_000 })
    }

    @Test func aLongPacketSkipsTheBoundariesItPassed() {
        var cutter = PartCutter(partDuration: Self.frame(10), gridOrigin: .zero)
        let ended = cutter.packetEnded(at: Self.frame(35))
        #expect(ended)
        #expect(cutter.nextBoundaryTime == Self.frame(40))
    }
}

@Suite struct PartDurationTests {
    static let frame = Timestamp(1, timescale: 30)

    @Test func theDefaultIsAThirdOfASecondInWholeFrames() {
        #expect(
            PartDuration.frames(requestedSeconds: nil, frameDuration: Self.frame, framesPerSegment: 60) == .success(10))
        // 25 fps: 8 frames would not divide a 50-frame segment; 5 does.
        #expect(
            PartDuration.frames(requestedSeconds: nil, frameDuration: Timestamp(1, timescale: 25), framesPerSegment: 50)
                == .success(5))
    }

    @Test(arguments: [
        (0.1, PartDuration.Problem.outOfRange(seconds: 0.1)),
        (1.5, .outOfRange(seconds: 1.5)),
        (0.25, .notWholeFrames(seconds: 0.25, framesPerSecond: 30)),
        (0.7, .doesNotDivideSegment(seconds: 0.7, segmentSeconds: 2)),
    ])
    func badPartDurationsAreRefusedWithTheReason(seconds: Double, problem: PartDuration.Problem) {
        #expect(
            PartDuration.frames(requestedSeconds: seconds, frameDuration: Self.frame, framesPerSegment: 60)
                == .failure(problem))
    }

    @Test func aPartOfWholeFramesThatDividesTheSegmentIsAccepted() {
        #expect(
            PartDuration.frames(requestedSeconds: 0.2, frameDuration: Self.frame, framesPerSegment: 60) == .success(6))
        #expect(
            PartDuration.frames(requestedSeconds: 1.0, frameDuration: Self.frame, framesPerSegment: 60) == .success(30))
    }
}

@Suite struct PartRetentionTests {
    @Test func partsAreListedForThreeTargetDurationsAndKeptOnDiskThreeMore() {
        let retention = PartRetention(targetDuration: 2)
        #expect(retention.listsParts(ofSegmentEndingAt: .seconds(10), edge: .seconds(15)))
        #expect(!retention.listsParts(ofSegmentEndingAt: .seconds(9), edge: .seconds(15)))
        #expect(!retention.mayDeleteParts(ofSegmentEndingAt: .seconds(4), edge: .seconds(15)))
        #expect(retention.mayDeleteParts(ofSegmentEndingAt: .seconds(3), edge: .seconds(15)))
    }
}

@Suite struct PartCutterGapTests {
    @Test func aPacketPastTheBoundaryEndsThePartBeforeIt() {
        // Frames 8 and 9 were left out: frame 7 ends at 8, frame 10 starts the next part.
        var cutter = PartCutter(partDuration: Timestamp(10, timescale: 30), gridOrigin: .zero)
        let ended = cutter.packetEnded(at: Timestamp(8, timescale: 30))
        let before = cutter.packetStarts(at: Timestamp(10, timescale: 30))
        let inside = cutter.packetStarts(at: Timestamp(11, timescale: 30))
        #expect(!ended && before && !inside)
        #expect(cutter.nextBoundaryTime == Timestamp(20, timescale: 30))
    }
}
