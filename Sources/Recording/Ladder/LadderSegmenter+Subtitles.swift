import Packaging
import Platform

extension LadderSegmenter {
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
            publisher.addSubtitle(record, language: language.tag)
        }
    }
}
