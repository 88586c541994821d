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

/// Writes the low-latency media playlists of the video renditions and the audio as parts arrive. All tracks are
/// published in step: each playlist lists the parts that every track has written, so the rendition reports
/// agree with the playlists they name and no playlist runs ahead of another by more than a part. Confined to
/// the coordinator's thread.
final class LowLatencyPublisher {
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
    private struct Position: Equatable {
        var segment: Int
        var parts: Int
        var completeSegments: Int
        var finished: Bool
    }

    private struct PendingTiming {
        var track: String
        var segment: Int
        var part: Int
        var duration: Timestamp
        var timing: PartTiming
    }

    let tracks: [Track]
    let partsPerSegment: Int
    let segmentExtension: String
    private let root: String
    private let programDateTime: (Timestamp) -> Int64?
    /// The recording's key schedule (EXT-X-KEY in every low-latency playlist), nil when it is clear.
    private let encryption: SegmentEncryption?
    private var parts: [TrackID: [[PartRecord]]] = [:]
    private var published: Position?
    private var pending: [PendingTiming] = []
    private var timingLog: FileHandle?
    private var partsDeletedBelow = 0

    init(
        tracks: [Track], partsPerSegment: Int, segmentExtension: String, root: String, timingLogPath: String?,
        encryption: SegmentEncryption?, programDateTime: @escaping (Timestamp) -> Int64?
    ) throws(SegmenterError) {
        self.encryption = encryption
        self.tracks = tracks
        self.partsPerSegment = partsPerSegment
        self.segmentExtension = segmentExtension
        self.root = root
        self.programDateTime = programDateTime
        if let path = timingLogPath {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else { throw .output("cannot write the timing log \(path)") }
            timingLog = handle
        }
    }

    deinit { try? timingLog?.close() }

    /// Notes a part that a track wrote.
    func add(track: TrackID, segment: Int, part: Int, _ record: PartRecord, _ timing: PartTiming) {
        var list = parts[track, default: []]
        while list.count <= segment { list.append([]) }
        if list[segment].count == part { list[segment].append(record) }
        parts[track] = list
        let name = tracks.first { $0.id == track }?.name ?? "?"
        pending.append(
            PendingTiming(track: name, segment: segment, part: part, duration: record.duration, timing: timing))
    }

    /// Rewrites every low-latency playlist when the position of the slowest track moved (or at the end).
    func publish(
        records: [TrackID: [SegmentRecord]], builder: PlaylistBuilder, initSegmentURI: String?, finished: Bool
    ) throws(SegmenterError) {
        let completeSegments = tracks.map { records[$0.id]?.count ?? 0 }.min() ?? 0
        var latest: (segment: Int, parts: Int)?
        var missing = false
        for track in tracks {
            guard let list = parts[track.id], let segment = list.lastIndex(where: { !$0.isEmpty }) else {
                missing = true
                continue
            }
            let mine = (segment: segment, parts: list[segment].count)
            if let current = latest, current <= mine { continue }
            latest = mine
        }
        if missing && !finished { return }
        let position = Position(
            segment: latest?.segment ?? 0, parts: latest?.parts ?? 0, completeSegments: completeSegments,
            finished: finished)
        guard position != published else { return }
        var edges: [TrackID: LiveEdge] = [:]
        var shown: [TrackID: [SegmentRecord]] = [:]
        for track in tracks {
            let all = records[track.id] ?? []
            if finished {
                shown[track.id] = Array(all.prefix(completeSegments))
            } else if completeSegments > position.segment {
                shown[track.id] = Array(all.prefix(position.segment + 1))
                edges[track.id] = LiveEdge(
                    sequence: position.segment + 1, parts: [], programDateTimeMilliseconds: nil,
                    nextPartURI: PartRecord.name(segment: position.segment + 1, part: 0, extension: segmentExtension))
            } else {
                shown[track.id] = Array(all.prefix(position.segment))
                let edgeParts = Array((parts[track.id]?[position.segment] ?? []).prefix(position.parts))
                let next =
                    position.parts < partsPerSegment
                    ? (position.segment, position.parts) : (position.segment + 1, 0)
                edges[track.id] = LiveEdge(
                    sequence: position.segment, parts: edgeParts,
                    programDateTimeMilliseconds: edgeParts.first.flatMap { programDateTime($0.startTime) },
                    nextPartURI: PartRecord.name(segment: next.0, part: next.1, extension: segmentExtension))
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
                    initSegmentURI: initSegmentURI, renditionReports: reports, encryption: encryption)
                try AtomicFile.write(PlaylistBuilder.text(of: .media(playlist)), to: root + "/" + track.playlistURI)
            }
        } catch {
            throw .output(error.description)
        }
        published = position
        logTimings(position)
        if builder.mode != .vod {
            let target = max(1, Int(builder.nominalSegmentDuration.seconds.rounded()))
            deleteExpiredParts(shown: shown, edges: edges, retention: PartRetention(targetDuration: target))
        }
    }

    private func logTimings(_ position: Position) {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let listed: (PendingTiming) -> Bool = {
            position.finished || $0.segment < position.completeSegments || $0.segment < position.segment
                || ($0.segment == position.segment && $0.part < position.parts)
        }
        let ready = pending.filter(listed)
        pending.removeAll(where: listed)
        guard let timingLog else { return }
        var text = ""
        for entry in ready {
            let capture = programDateTime(entry.timing.lastSampleTime).map(String.init) ?? "null"
            text +=
                "{\"track\":\"\(entry.track)\",\"msn\":\(entry.segment),\"part\":\(entry.part),"
                + "\"duration_s\":\(entry.duration.seconds),\"last_capture_ms\":\(capture),"
                + "\"renamed_ms\":\(entry.timing.renamedAtMilliseconds),\"listed_ms\":\(now)}\n"
        }
        timingLog.write(Data(text.utf8))
    }

    /// Deletes the part files of segments whose parts left the playlists long enough ago (`PartRetention`);
    /// the segment files themselves stay while the playlists list them.
    private func deleteExpiredParts(
        shown: [TrackID: [SegmentRecord]], edges: [TrackID: LiveEdge], retention: PartRetention
    ) {
        guard let first = tracks.first, let records = shown[first.id], let last = records.last else { return }
        let edge = edges[first.id]?.parts.last.map { $0.startTime + $0.duration } ?? last.startTime + last.duration
        while partsDeletedBelow < records.count,
            retention.mayDeleteParts(
                ofSegmentEndingAt: records[partsDeletedBelow].startTime + records[partsDeletedBelow].duration,
                edge: edge)
        {
            for track in tracks {
                let folder = root + "/" + (track.playlistURI.split(separator: "/").first.map(String.init) ?? "")
                for part in shown[track.id]?[partsDeletedBelow].parts ?? [] {
                    AtomicFile.remove(folder + "/" + part.uri)
                }
            }
            partsDeletedBelow += 1
        }
    }
}
