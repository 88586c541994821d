import Packaging
import Platform

extension LadderSegmenter {
    /// Deletes the segment files of every track that left the sliding window longer ago than a player
    /// may still need them (`SegmentRetention`), with the I-frame resources of their own (encrypted segments);
    /// the playlists just written no longer name them.
    func deleteExpiredSegments(_ presentation: Presentation) {
        let expired = SegmentRetention(mode: configuration.mode).deletableSegments(publishedCount: publishedCount)
        guard expired.upperBound > deletedCount else { return }
        let indices = deletedCount..<expired.upperBound
        let root = configuration.outputFolder + "/"
        var tracks: [(folder: String, segments: [SegmentRecord])] = presentation.videos.map {
            (root + Self.folder(of: $0.playlistURI), $0.segments)
        }
        if let audio = presentation.audio { tracks.append((root + Self.folder(of: audio.playlistURI), audio.segments)) }
        tracks += presentation.subtitles.map { (root + Self.folder(of: $0.playlistURI), $0.segments) }
        for (folder, segments) in tracks {
            for index in indices where index < segments.count {
                for uri in segments[index].fileURIs { AtomicFile.remove(folder + uri) }
            }
        }
        deletedCount = expired.upperBound
    }

    /// `720p/` for `720p/index.m3u8`: where a playlist's segments live, relative to the output folder.
    private static func folder(of playlistURI: String) -> String {
        playlistURI.lastIndex(of: "/").map { String(playlistURI[...$0]) } ?? ""
    }

    // MARK: Subtitles

    /// Writes the WebVTT segment (every language) that started at the last cut and ends at `end`.
    func closeSubtitleSegment(endingAt end: Timestamp) throws(SegmenterError) {
        guard let captions = configuration.captions, let (index, start) = subtitleSegmentStart else { return }
        subtitleSegmentStart = nil
        let isLast = isClosed
        let zero = firstVideoTime ?? .zero
        let mpegTimestamp = (zero + Self.muxOffset).converted(to: 90_000).value
        for language in RecordingCaptions.languages {
            let cues = captions.cues(language, from: start - zero, to: end - zero, isLast: isLast)
            let text = WebVTTSegment.text(cues: cues, mpegTimestamp: mpegTimestamp)
            let name = TrackSegmenter.segmentName(index, extension: "vtt")
            do {
                try AtomicFile.write(text, to: configuration.outputFolder + "/subs/\(language.tag)/" + name)
            } catch {
                throw .output(error.description)
            }
            let record = SegmentRecord(
                uri: name, startTime: start, duration: end - start, byteSize: text.utf8.count,
                programDateTimeMilliseconds: configuration.wallClockOrigin.map {
                    $0 + (start - zero).converted(to: 1000).value
                })
            subtitleRecords[language.tag, default: []].append(record)
        }
    }
}
