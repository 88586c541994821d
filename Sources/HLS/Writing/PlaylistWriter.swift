/// Writes playlists as text: parsed playlists back byte for byte, playlists built in code canonically.
///
/// ```swift
/// let writer = PlaylistWriter()
/// let text = writer.write(.media(playlist))          // String
/// let bytes = writer.writeBytes(.media(playlist))    // [UInt8], for files and HTTP bodies
/// ```
/// In ``Mode/preservingSource`` (the default) a parsed playlist that was not edited is returned as its exact
/// input bytes (BOM, CRLF, comments, blank lines and unknown tags included). After an edit, each segment,
/// variant, rendition, I-frame variant, session data and session key that still equals what was parsed is
/// copied through from the input; everything else is serialised canonically. For a media playlist the lines
/// before the first segment and after the last one are copied when no playlist-level property changed.
///
/// ``Mode/canonical`` ignores the source and writes: tags in a fixed order (header tags, then each segment's
/// tags, EXTINF, its unknown tags and comments, its URI), attributes in the spec's order, LF line endings,
/// durations with the shortest decimal that reads back as the same `Double` (EXTINF with at least three
/// decimals). `parse(write(p))` equals `p` for every playlist the parser accepts without error.
///
/// Not handled: the writer does not escape; a quoted-string value containing `"`, CR or LF is written as is
/// and will not read back the same.
public struct PlaylistWriter: Sendable {
    public enum Mode: Sendable {
        /// Copy unedited parsed text through; serialise only what changed.
        case preservingSource
        /// Serialise everything in the canonical form.
        case canonical
    }

    public var mode: Mode

    public init(mode: Mode = .preservingSource) {
        self.mode = mode
    }

    /// The playlist as text.
    public func write(_ playlist: Playlist) -> String {
        String(decoding: writeBytes(playlist), as: UTF8.self)
    }

    /// The playlist as UTF-8 bytes.
    public func writeBytes(_ playlist: Playlist) -> [UInt8] {
        switch playlist {
        case .media(let media): writeBytes(media)
        case .multivariant(let multivariant): writeBytes(multivariant)
        }
    }

    public func write(_ playlist: MediaPlaylist) -> String { String(decoding: writeBytes(playlist), as: UTF8.self) }

    public func write(_ playlist: MultivariantPlaylist) -> String {
        String(decoding: writeBytes(playlist), as: UTF8.self)
    }

    public func writeBytes(_ playlist: MediaPlaylist) -> [UInt8] {
        var output = TextOutput()
        if mode == .preservingSource, let origin = playlist.provenance.origin {
            if playlist == origin.model { return origin.bytes }
            writePreserving(playlist, origin: origin, into: &output)
        } else {
            writeHeader(playlist, into: &output)
            for segment in playlist.segments { output.segment(segment) }
            writeTrailer(playlist, into: &output)
        }
        return output.bytes
    }

    public func writeBytes(_ playlist: MultivariantPlaylist) -> [UInt8] {
        var output = TextOutput()
        let origin = mode == .preservingSource ? playlist.provenance.origin : nil
        if let origin, playlist == origin.model { return origin.bytes }
        let snapshot = origin?.model
        let bytes = origin?.bytes ?? []

        output.line("#EXTM3U")
        if let version = playlist.version { output.line("#EXT-X-VERSION:\(version)") }
        if playlist.independentSegments { output.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { output.element(start, TagSchemas.start) }
        for define in playlist.defines { output.define(define) }
        if let steering = playlist.contentSteering { output.element(steering, TagSchemas.contentSteering) }
        for data in playlist.sessionData {
            output.copyOrWrite(data, from: snapshot?.sessionData, bytes: bytes, TagSchemas.sessionData)
        }
        for key in playlist.sessionKeys {
            output.copyOrWrite(key, from: snapshot?.sessionKeys, bytes: bytes, TagSchemas.key, tag: .sessionKey)
        }
        for line in playlist.verbatimLines { output.line(line.text) }
        for rendition in playlist.renditions {
            output.copyOrWrite(rendition, from: snapshot?.renditions, bytes: bytes, TagSchemas.rendition)
        }
        for variant in playlist.variants {
            if !output.copy(variant, from: snapshot?.variants, bytes: bytes) { output.variant(variant) }
        }
        for variant in playlist.iFrameVariants {
            output.copyOrWrite(variant, from: snapshot?.iFrameVariants, bytes: bytes, TagSchemas.iFrameVariant)
        }
        return output.bytes
    }

    // MARK: - Media playlist parts

    private func writePreserving(
        _ playlist: MediaPlaylist, origin: ParsedOrigin<MediaPlaylist>, into output: inout TextOutput
    ) {
        let snapshot = origin.model
        let bytes = origin.bytes
        var current = playlist
        current.segments = []
        var original = snapshot
        original.segments = []
        let playlistTagsUnchanged = current == original

        let firstStart =
            snapshot.segments.first?.source?.byteRange.lowerBound
            ?? snapshot.incompleteSegment?.source?.byteRange.lowerBound ?? bytes.count
        let lastEnd = snapshot.segments.last?.source?.byteRange.upperBound ?? firstStart

        if playlistTagsUnchanged {
            output.raw(bytes[0..<min(firstStart, bytes.count)])
        } else {
            writeHeader(playlist, into: &output)
        }
        for segment in playlist.segments {
            if !output.copy(segment, from: snapshot.segments, bytes: bytes) { output.segment(segment) }
        }
        if playlistTagsUnchanged {
            output.raw(bytes[min(lastEnd, bytes.count)..<bytes.count])
        } else {
            writeTrailer(playlist, into: &output)
        }
    }

    private func writeHeader(_ playlist: MediaPlaylist, into output: inout TextOutput) {
        output.line("#EXTM3U")
        if let version = playlist.version { output.line("#EXT-X-VERSION:\(version)") }
        if let target = playlist.targetDuration { output.line("#EXT-X-TARGETDURATION:\(target)") }
        if let sequence = playlist.mediaSequence { output.line("#EXT-X-MEDIA-SEQUENCE:\(sequence)") }
        if let sequence = playlist.discontinuitySequence { output.line("#EXT-X-DISCONTINUITY-SEQUENCE:\(sequence)") }
        if let type = playlist.playlistType { output.line("#EXT-X-PLAYLIST-TYPE:\(type.rawValue)") }
        if playlist.iFramesOnly { output.line("#EXT-X-I-FRAMES-ONLY") }
        if playlist.independentSegments { output.line("#EXT-X-INDEPENDENT-SEGMENTS") }
        if let start = playlist.start { output.element(start, TagSchemas.start) }
        for define in playlist.defines { output.define(define) }
        if let control = playlist.serverControl { output.element(control, TagSchemas.serverControl) }
        if let partInf = playlist.partInf { output.element(partInf, TagSchemas.partInf) }
        for line in playlist.verbatimLines { output.line(line.text) }
        if let skip = playlist.skip { output.element(skip, TagSchemas.skip) }
    }

    private func writeTrailer(_ playlist: MediaPlaylist, into output: inout TextOutput) {
        if let incomplete = playlist.incompleteSegment { output.segmentTags(incomplete, complete: false) }
        if playlist.endList { output.line("#EXT-X-ENDLIST") }
        for hint in playlist.preloadHints { output.element(hint, TagSchemas.preloadHint) }
        for report in playlist.renditionReports { output.element(report, TagSchemas.renditionReport) }
        for line in playlist.trailingVerbatimLines { output.line(line.text) }
    }
}

/// An element that can be copied through from its parsed text.
protocol SourcedElement: Hashable {
    var source: SourceSpan? { get }
}

extension Segment: SourcedElement {}
extension Variant: SourcedElement {}
extension IFrameVariant: SourcedElement {}
extension Rendition: SourcedElement {}
extension SessionData: SourcedElement {}
extension Key: SourcedElement {}
