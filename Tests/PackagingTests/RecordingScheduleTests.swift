import Packaging
import Testing

/// The recording's frame-by-frame decisions, without libav or a clock: pacing, frames dropped when behind, the
/// poster, and where a stop request ends the recording.
@Suite struct RecordingScheduleTests {
    static let frame = Timestamp(1, timescale: 30)

    static func time(_ index: Int) -> Timestamp { frame * Int64(index) }

    @Test func framesAreDueAtTheirCaptureTimeAfterTheFirst() {
        var schedule = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: true)
        let start = Timestamp(900, timescale: 30)  // a source whose clock does not start at 0
        let first = schedule.dueSeconds(of: start), later = schedule.dueSeconds(of: start + Self.time(45))
        #expect(first == 0)
        #expect(later == 1.5)
    }

    @Test func aLowLatencyRecordingBehindKeepsTheFirstFrameOfEachPartAndSaysSoOnce() {
        var schedule = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: true, framesPerPart: 10)
        // On time for 10 frames, then 0.1 s (three frames) behind for 30.
        let placements = (0..<40).map { schedule.place(lateBySeconds: $0 < 10 ? 0.01 : 0.1) }
        let encoded = placements.enumerated().filter(\.element.encodesVideo).map(\.offset)
        #expect(encoded == Array(0..<10) + [10, 20, 30])
        #expect(schedule.framesDropped == 27)
        #expect(placements.filter(\.isFirstDrop).count == 1)
        #expect(placements[11].isFirstDrop)
    }

    @Test func onlyLowLatencyDropsAndTwoFramesLateIsNotLate() {
        var regular = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: true)
        var vod = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: false, framesPerPart: 10)
        var low = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: true, framesPerPart: 10)
        for _ in 0..<30 {
            let placed = [
                regular.place(lateBySeconds: 5), vod.place(lateBySeconds: 5),
                low.place(lateBySeconds: 2 * Self.frame.seconds),
            ]
            #expect(placed.allSatisfy { $0.encodesVideo })
        }
    }

    @Test func thePosterIsTheFrameOneSecondInEvenIfItsVideoIsDropped() {
        var schedule = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: true, framesPerPart: 7)
        #expect(schedule.posterFrameIndex == 30)
        let placements = (0..<40).map { _ in schedule.place(lateBySeconds: 1) }
        #expect(placements.enumerated().filter(\.element.isPoster).map(\.offset) == [30])
        #expect(!placements[30].encodesVideo)
        #expect(schedule.posterWritten)

        var short = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: false)
        let shortPlacements = (0..<20).map { _ in short.place(lateBySeconds: 0) }
        #expect(!shortPlacements.contains { $0.isPoster })
        #expect(!short.posterWritten, "a shorter input leaves the poster to its last frame")
    }

    @Test func aStopRequestEndsTheRecordingAtTheEndOfTheSegmentInProgress() {
        var schedule = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: true)
        let origin = Timestamp(3000, timescale: 30)
        var last = -1
        for index in 0..<1000 {
            guard schedule.dueSeconds(of: origin + Self.time(index)) != nil else { break }
            last = index
            // Ctrl-C arrives during frame 75, in the second segment (frames 60–119).
            if schedule.stopRequested(signals: index >= 75 ? 1 : 0, after: origin + Self.time(index)) { break }
        }
        #expect(last == 119)
        #expect(schedule.stopAt == origin + Self.time(120))
    }

    @Test func aSecondStopRequestEndsItAtOnce() {
        var schedule = RecordingSchedule(frameDuration: Self.frame, framesPerSegment: 60, live: true)
        _ = schedule.dueSeconds(of: .zero)
        let afterFirst = schedule.stopRequested(signals: 1, after: Self.time(3))
        let afterSecond = schedule.stopRequested(signals: 2, after: Self.time(4))
        #expect(!afterFirst)
        #expect(afterSecond)
    }
}
