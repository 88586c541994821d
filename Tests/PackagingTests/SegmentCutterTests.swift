import Testing

@testable import Packaging

@Suite struct SegmentCutterTests {
    /// A packet: presentation time in 1/30 s, keyframe or not.
    struct Packet: Sendable {
        var frame: Int64?
        var key: Bool
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var targetFrames: Int64
        var packets: [Packet]
        /// Frame numbers that start a segment.
        var expectedStarts: [Int64]
        var testDescription: String { name }
    }

    static func frames(_ count: Int64, keyEvery: Int64, from first: Int64 = 0) -> [Packet] {
        (first..<(first + count)).map { Packet(frame: $0, key: ($0 - first) % keyEvery == 0) }
    }

    static let cases: [Case] = [
        Case(
            name: "keyframes exactly on the grid", targetFrames: 60,
            packets: frames(180, keyEvery: 60), expectedStarts: [0, 60, 120]),
        Case(
            name: "keyframes more often than the grid cut only at the boundary", targetFrames: 60,
            packets: frames(150, keyEvery: 25), expectedStarts: [0, 75, 125]),
        Case(
            name: "a late keyframe does not shift later boundaries", targetFrames: 60,
            packets: [0, 70, 120, 180].map { Packet(frame: $0, key: true) }, expectedStarts: [0, 70, 120, 180]),
        Case(
            name: "a keyframe past two boundaries skips the missed one", targetFrames: 60,
            packets: [0, 130, 150, 180].map { Packet(frame: $0, key: true) }, expectedStarts: [0, 130, 180]),
        Case(
            name: "non-keyframes never cut", targetFrames: 30,
            packets: frames(100, keyEvery: 1000), expectedStarts: [0]),
        Case(
            name: "the grid starts at the first packet, not at zero", targetFrames: 60,
            packets: frames(130, keyEvery: 60, from: 45), expectedStarts: [45, 105, 165]),
        Case(
            name: "packets without a timestamp never cut", targetFrames: 30,
            packets: [
                Packet(frame: nil, key: true), Packet(frame: 0, key: true), Packet(frame: nil, key: true),
                Packet(frame: 30, key: true),
            ], expectedStarts: [0, 30]),
    ]

    @Test(arguments: cases)
    func cutsOnlyAtKeyframesThatReachTheNextBoundary(_ testCase: Case) {
        var cutter = SegmentCutter(targetDuration: Timestamp(testCase.targetFrames, timescale: 30))
        var starts: [Int64] = []
        for packet in testCase.packets {
            let time = packet.frame.map { Timestamp($0, timescale: 30) }
            if case .startSegment(let index) = cutter.handle(presentationTime: time, isKeyframe: packet.key) {
                #expect(index == starts.count)
                starts.append(packet.frame ?? -1)
            }
        }
        #expect(starts == testCase.expectedStarts)
        #expect(cutter.segmentStarts == starts.map { Timestamp($0, timescale: 30) })
    }

    @Test func audioInADifferentTimescaleCutsAtTheFirstFrameOnOrAfterTheBoundary() {
        // AAC at 48 kHz: 1024-sample frames; 2 s boundaries fall inside frames 93 and 187.
        var cutter = SegmentCutter(targetDuration: .seconds(2))
        var starts: [Int64] = []
        for index in Int64(0)..<200 {
            if case .startSegment = cutter.handle(
                presentationTime: Timestamp(index * 1024, timescale: 48000), isKeyframe: true)
            {
                starts.append(index)
            }
        }
        #expect(starts == [0, 94, 188])
    }

    @Test func aGridOriginFromAnotherStreamAlignsTheCuts() {
        // AAC priming puts the first audio packet 1024 samples before the video's first frame at 0;
        // with the video's origin the cuts still fall at the first packets on or after 2 s and 4 s.
        var cutter = SegmentCutter(targetDuration: .seconds(2), gridOrigin: .zero)
        var starts: [Int64] = []
        for index in Int64(-1)..<200 {
            let time = Timestamp(index * 1024, timescale: 48000)
            if case .startSegment = cutter.handle(presentationTime: time, isKeyframe: true) { starts.append(index) }
        }
        #expect(starts == [-1, 94, 188])
    }
}
