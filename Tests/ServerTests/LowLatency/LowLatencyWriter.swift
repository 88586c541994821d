import Foundation

/// A stand-in for an LL-HLS packager in a served folder: writes part files and a media playlist (parts,
/// preload hint, server control) by temporary name and rename, as any LL-HLS writer would. Parts are 0.5 s,
/// four to a 2 s segment, so PART-HOLD-BACK is 1.5 and the Advance Part Limit is 6.
final class LowLatencyWriter {
    let folder: URL
    let targetDuration: Int
    let partsPerSegment = 4
    private(set) var completeSegments = 0
    private(set) var partsInProgress = 0
    var ended = false
    /// Called with each file's name once it is in place (a test site is told its files changed).
    var changed: (String) -> Void = { _ in }

    init(folder: URL, targetDuration: Int = 2) throws {
        self.folder = folder
        self.targetDuration = targetDuration
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try publish()
    }

    static func partName(_ sequence: Int, _ part: Int) -> String { "part\(sequence).\(part).m4s" }

    /// The playlist text for the current state.
    var playlist: String {
        let partTarget = Double(targetDuration) / Double(partsPerSegment)
        var text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:\(targetDuration)\n"
        text +=
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=\(6 * targetDuration),PART-HOLD-BACK=\(3 * partTarget),HOLD-BACK=\(3 * targetDuration)\n"
        text += "#EXT-X-PART-INF:PART-TARGET=\(partTarget)\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for sequence in 0..<completeSegments {
            for part in 0..<partsPerSegment {
                text +=
                    "#EXT-X-PART:DURATION=\(partTarget),URI=\"\(Self.partName(sequence, part))\"\(part == 0 ? ",INDEPENDENT=YES" : "")\n"
            }
            text += "#EXTINF:\(Double(targetDuration)),\nseg\(sequence).m4s\n"
        }
        for part in 0..<partsInProgress {
            text +=
                "#EXT-X-PART:DURATION=\(partTarget),URI=\"\(Self.partName(completeSegments, part))\"\(part == 0 ? ",INDEPENDENT=YES" : "")\n"
        }
        if ended { return text + "#EXT-X-ENDLIST\n" }
        let next = partsInProgress == partsPerSegment ? (completeSegments + 1, 0) : (completeSegments, partsInProgress)
        return text + "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(Self.partName(next.0, next.1))\"\n"
    }

    /// Publishes the next part (and the segment it completes), then the playlist that lists it.
    func addPart() throws {
        try write(
            Self.partName(completeSegments, partsInProgress),
            Data(repeating: UInt8(partsInProgress), count: 1000 + partsInProgress))
        partsInProgress += 1
        if partsInProgress == partsPerSegment {
            try write("seg\(completeSegments).m4s", Data(repeating: 7, count: 4000))
            completeSegments += 1
            partsInProgress = 0
        }
        try publish()
    }

    func end() throws {
        ended = true
        try publish()
    }

    func publish() throws { try write("index.m3u8", Data(playlist.utf8)) }

    func write(_ name: String, _ data: Data) throws {
        let temporary = folder.appendingPathComponent(".\(name).tmp")
        try data.write(to: temporary)
        _ = rename(temporary.path, folder.appendingPathComponent(name).path)
        changed(name)
    }
}
