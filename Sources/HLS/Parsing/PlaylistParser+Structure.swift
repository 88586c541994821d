/// URI lines, verbatim lines and the bookkeeping that groups lines into segments and variants.
extension PlaylistParser {
    /// Decides the playlist kind from a kind-specific tag. Returns false when the tag belongs to the other kind
    /// (it is then kept as a verbatim line and reported).
    mutating func admit(_ tag: TagName, value: Range<Int>?) -> Bool {
        let scope = tag.scope
        if scope == .either { return true }
        let wanted: Playlist.Kind = scope == .media ? .media : .multivariant
        if kind == nil { kind = wanted }
        if kind == wanted { return true }
        report(
            .error, .tagWrongPlaylistKind,
            "\(tag.rawValue) does not belong in a \(kind == .media ? "media" : "multivariant") playlist; kept as an unknown tag",
            at: lineLocation, spec: SpecReference.section(for: tag))
        info.tagOccurrences.append(
            TagOccurrence(tag: tag, location: lineLocation, segmentIndex: currentIndex, isMisplaced: true))
        addVerbatim(.unknownTag(name: tag.rawValue, value: value.map { string($0) }))
        return false
    }

    /// Segments (media) or variants (multivariant) completed so far.
    var currentIndex: Int {
        @inline(__always) get { kind == .multivariant ? multivariant.variants.count : completedSegmentCount }
    }

    /// Marks the current line as part of the pending segment (media playlists).
    @inline(__always)
    mutating func beginSegmentLine() {
        if pendingStart == nil {
            pendingStart = lastSegmentEnd ?? lineStart
            pendingLocation = lineLocation
        } else if pendingLocation == nil {
            pendingLocation = lineLocation
        }
    }

    mutating func addVerbatim(_ content: VerbatimLine.Content) {
        let line = VerbatimLine(content, source: SourceSpan(location: lineLocation, byteRange: lineStart..<lineNext))
        if kind == .multivariant {
            if pendingVariant != nil {
                pendingVariant!.verbatimLines.append(line)
            } else {
                multivariant.verbatimLines.append(line)
            }
        } else if pendingHasTags || pendingHasExtinf || completedSegmentCount > 0 || continuation != nil {
            beginSegmentLine()
            pending.verbatimLines.append(line)
        } else if kind == nil {
            headerVerbatim.append(line)
        } else {
            media.verbatimLines.append(line)
        }
    }

    /// After 512 segments, reserves room for the rest, estimated from the bytes per segment so far, so the
    /// segment and tag arrays are not reallocated (and briefly held twice) as they grow.
    mutating func reserveForEstimatedSize() {
        // The first half of a parse in halves reserves for the whole input (the second half's segments are
        // appended to its arrays); the second half starts counting at its cut.
        let consumed = max(lineNext - (continuation ?? 0), 1)
        let remaining = buffer.count - lineNext
        let segmentsSoFar = media.segments.count
        let estimate = min(Int(Double(remaining) * Double(segmentsSoFar) / Double(consumed) * 1.05) + 64, remaining / 8)
        guard estimate > 0 else { return }
        media.segments.reserveCapacity(segmentsSoFar + estimate)
        let tagsPerSegment = Double(info.tagOccurrences.count) / Double(segmentsSoFar)
        info.tagOccurrences.reserveCapacity(info.tagOccurrences.count + Int(Double(estimate) * tagsPerSegment) + 64)
    }

    mutating func handleURILine() {
        var start = lineStart
        var end = lineEnd
        while start < end && (buffer[start] == 0x20 || buffer[start] == 0x09) { start += 1 }
        while end > start && (buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09) { end -= 1 }
        if start != lineStart || end != lineEnd {
            if start == end {
                report(
                    .error, .lineWhitespace, "line holds only whitespace", at: lineLocation,
                    spec: SpecReference.playlistFile)
                return
            }
            report(
                .error, .lineWhitespace, "whitespace around the URI line", at: lineLocation,
                spec: SpecReference.playlistFile)
        }
        // Substituted now (so undefined variables are reported first); otherwise a segment keeps the range.
        let substituted =
            containsVariableReference(start..<end) ? substitutedString(start..<end, at: location(start)) : nil
        if kind == .multivariant {
            let uri = substituted ?? string(start..<end)
            guard var variant = pendingVariant else {
                report(
                    .error, .uriWithoutTag, "URI line without a preceding EXT-X-STREAM-INF; ignored",
                    at: lineLocation, spec: SpecReference.streamInf)
                return
            }
            variant.uri = uri
            variant.source = SourceSpan(location: pendingVariantLocation, byteRange: pendingVariantStart..<lineNext)
            multivariant.variants.append(variant)
            pendingVariant = nil
            return
        }
        guard pendingHasExtinf else {
            if kind == nil { kind = .media }
            report(
                .error, .uriWithoutTag, "URI line without a preceding EXTINF; ignored", at: lineLocation,
                spec: SpecReference.extinf)
            return
        }
        beginSegmentLine()
        pending.uriText = substituted.map(ParsedText.init) ?? ParsedText(parsedBytes, start..<end)
        pending.source = SourceSpan(
            location: pendingLocation ?? lineLocation, byteRange: (pendingStart ?? lineStart)..<lineNext)
        pendingInArray = false  // complete, in place
        if media.segments.count == 512 { reserveForEstimatedSize() }
        pendingHasExtinf = false
        pendingHasTags = false
        pendingStart = nil
        pendingLocation = nil
        lastSegmentEnd = lineNext
    }
}
