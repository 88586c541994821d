import Foundation
import HLS
import Packaging
import Platform

/// How a live recording publishes LL-HLS parts.
public struct LowLatencySettings: Sendable {
    /// Length of a part (whole frames; divides the segment duration).
    public var partDuration: Timestamp
    /// A file that receives one JSON line per published part (capture of its last sample, rename, listing).
    public var timingLogPath: String?

    public init(partDuration: Timestamp, timingLogPath: String? = nil) {
        self.partDuration = partDuration
        self.timingLogPath = timingLogPath
    }
}

// The low-latency media playlists of the video renditions and the audio, written as parts arrive. All tracks are
// published in step: each playlist lists the parts that every track has written, so the rendition reports agree
// with the playlists they name and no playlist runs ahead of another by more than a part.
extension PlaylistPublisher {
    /// The parts the tracks wrote and where their publication stands.
    struct LowLatencyState {
        struct Track {
            var id: TrackID
            /// Relative to the output folder (`720p/index.m3u8`).
            var playlistURI: String
            /// Used in the timing log (`720p`, `audio`).
            var name: String
            var partTarget: Timestamp
        }

        /// Where publication stands: the last part every track has (segment, count) and how many segments every
        /// track has closed.
        struct Position: Equatable {
            var segment: Int
            var parts: Int
            var completeSegments: Int
            var finished: Bool
        }

        struct PendingTiming {
            var track: String
            var segment: Int
            var part: Int
            var duration: Timestamp
            var timing: PartTiming
        }

        let tracks: [Track]
        let partsPerSegment: Int
        let segmentExtension: String
        let programDateTime: (Timestamp) -> Int64?
        var parts: [TrackID: [[PartRecord]]] = [:]
        var published: Position?
        var pending: [PendingTiming] = []
        let timingLog: TimingLog?
        var partsDeletedBelow = 0

        init(
            tracks: [Track], partsPerSegment: Int, segmentExtension: String, timingLogPath: String?,
            programDateTime: @escaping (Timestamp) -> Int64?
        ) throws(SegmenterError) {
            self.tracks = tracks
            self.partsPerSegment = partsPerSegment
            self.segmentExtension = segmentExtension
            self.programDateTime = programDateTime
            timingLog = try timingLogPath.map { path throws(SegmenterError) in try TimingLog(path: path) }
        }
    }

    /// The `--timing-log` file, closed when the recording is.
    final class TimingLog {
        let handle: FileHandle

        init(path: String) throws(SegmenterError) {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else { throw .output("cannot write the timing log \(path)") }
            self.handle = handle
        }

        deinit { try? handle.close() }
    }

    /// Notes a part that a track wrote.
    func addPart(track: TrackID, segment: Int, part: Int, _ record: PartRecord, _ timing: PartTiming) {
        guard var state = lowLatency else { return }
        var list = state.parts[track, default: []]
        while list.count <= segment { list.append([]) }
        if list[segment].count == part { list[segment].append(record) }
        state.parts[track] = list
        let name = state.tracks.first { $0.id == track }?.name ?? "?"
        state.pending.append(
            .init(track: name, segment: segment, part: part, duration: record.duration, timing: timing))
        lowLatency = state
    }

    /// Rewrites every low-latency playlist when the position of the slowest track moved (or at the end).
    func publishLowLatency(finished: Bool) throws(SegmenterError) {
        guard var state = lowLatency else { return }
        defer { lowLatency = state }
        let tracks = state.tracks
        let completeSegments = tracks.map { records(of: $0.id).count }.min() ?? 0
        var latest: (segment: Int, parts: Int)?
        var missing = false
        for track in tracks {
            guard let list = state.parts[track.id], let segment = list.lastIndex(where: { !$0.isEmpty }) else {
                missing = true
                continue
            }
            let mine = (segment: segment, parts: list[segment].count)
            if let current = latest, current <= mine { continue }
            latest = mine
        }
        if missing && !finished { return }
        let position = LowLatencyState.Position(
            segment: latest?.segment ?? 0, parts: latest?.parts ?? 0, completeSegments: completeSegments,
            finished: finished)
        guard position != state.published else { return }
        var edges: [TrackID: LiveEdge] = [:]
        var shown: [TrackID: [SegmentRecord]] = [:]
        for track in tracks {
            let all = records(of: track.id)
            if finished {
                shown[track.id] = Array(all.prefix(completeSegments))
            } else if completeSegments > position.segment {
                shown[track.id] = Array(all.prefix(position.segment + 1))
                edges[track.id] = LiveEdge(
                    sequence: position.segment + 1, parts: [], programDateTimeMilliseconds: nil,
                    nextPartURI: PartRecord.name(
                        segment: position.segment + 1, part: 0, extension: state.segmentExtension))
            } else {
                shown[track.id] = Array(all.prefix(position.segment))
                let edgeParts = Array((state.parts[track.id]?[position.segment] ?? []).prefix(position.parts))
                let next =
                    position.parts < state.partsPerSegment
                    ? (position.segment, position.parts) : (position.segment + 1, 0)
                edges[track.id] = LiveEdge(
                    sequence: position.segment, parts: edgeParts,
                    programDateTimeMilliseconds: edgeParts.first.flatMap { state.programDateTime($0.startTime) },
                    nextPartURI: PartRecord.name(segment: next.0, part: next.1, extension: state.segmentExtension))
            }
        }
        do {
            for track in tracks {
                let reports = tracks.filter { $0.id != track.id }.map { other in
                    PlaylistBuilder.renditionReport(
                        uri: "../" + other.playlistURI, records: shown[other.id] ?? [], edge: edges[other.id])
                }
                let playlist = builder.lowLatencyMediaPlaylist(
                    shown[track.id] ?? [], edge: edges[track.id], partTarget: track.partTarget,
                    initSegmentURI: layout.initSegmentURI, renditionReports: reports, encryption: layout.encryption)
                try write(.media(playlist), to: track.playlistURI)
            }
        } catch {
            throw .output(error.description)
        }
        state.published = position
        Self.logTimings(position, &state)
        if builder.mode != .vod {
            let target = max(1, Int(builder.nominalSegmentDuration.seconds.rounded()))
            deleteExpiredParts(
                shown: shown, edges: edges, retention: PartRetention(targetDuration: target), &state)
        }
    }

    private static func logTimings(_ position: LowLatencyState.Position, _ state: inout LowLatencyState) {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let listed: (LowLatencyState.PendingTiming) -> Bool = {
            position.finished || $0.segment < position.completeSegments || $0.segment < position.segment
                || ($0.segment == position.segment && $0.part < position.parts)
        }
        let ready = state.pending.filter(listed)
        state.pending.removeAll(where: listed)
        guard let timingLog = state.timingLog else { return }
        var text = ""
        for entry in ready {
            let capture = state.programDateTime(entry.timing.lastSampleTime).map(String.init) ?? "null"
            text +=
                "{\"track\":\"\(entry.track)\",\"msn\":\(entry.segment),\"part\":\(entry.part),"
                + "\"duration_s\":\(entry.duration.seconds),\"last_capture_ms\":\(capture),"
                + "\"renamed_ms\":\(entry.timing.renamedAtMilliseconds),\"listed_ms\":\(now)}\n"
        }
        timingLog.handle.write(Data(text.utf8))
    }

    /// Deletes the part files of segments whose parts left the playlists long enough ago (`PartRetention`);
    /// the segment files themselves stay while the playlists list them.
    private func deleteExpiredParts(
        shown: [TrackID: [SegmentRecord]], edges: [TrackID: LiveEdge], retention: PartRetention,
        _ state: inout LowLatencyState
    ) {
        guard let first = state.tracks.first, let records = shown[first.id], let last = records.last else { return }
        let edge = edges[first.id]?.parts.last.map { $0.startTime + $0.duration } ?? last.startTime + last.duration
        while state.partsDeletedBelow < records.count,
            retention.mayDeleteParts(
                ofSegmentEndingAt: records[state.partsDeletedBelow].startTime
                    + records[state.partsDeletedBelow].duration,
                edge: edge)
        {
            for track in state.tracks {
                let folder = layout.root + "/" + (track.playlistURI.split(separator: "/").first.map(String.init) ?? "")
                for part in shown[track.id]?[state.partsDeletedBelow].parts ?? [] {
                    AtomicFile.remove(folder + "/" + part.uri)
                }
            }
            state.partsDeletedBelow += 1
        }
    }
}
