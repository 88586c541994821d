import Synchronization

/// What a rule sees: the playlist and where its tags were written (when it was parsed from text).
public struct ValidationContext: Sendable {
    public let playlist: Playlist
    /// Tag positions from the parser; nil for a playlist built in code (positions then fall back to 1:1).
    public let parseInfo: ParseInfo?

    /// Per tag, the first location written for each segment index: built on the first lookup (rules look
    /// locations up only for what they report, and a clean playlist reports nothing), then shared.
    private let segmentTagLocations: LazySegmentTagLocations

    public init(playlist: Playlist) {
        self.playlist = playlist
        self.parseInfo = playlist.parseInfo
        segmentTagLocations = LazySegmentTagLocations(parseInfo?.tagOccurrences ?? [])
    }

    /// Where the first occurrence of `tag` was written, or nil.
    public func firstLocation(of tag: TagName) -> SourceLocation? {
        parseInfo?.tagOccurrences.first { $0.tag == tag }?.location
    }

    /// Where the media segment tag `tag` was written for the segment at `segmentIndex`, or nil.
    public func location(of tag: TagName, segment segmentIndex: Int) -> SourceLocation? {
        segmentTagLocations.location(of: tag, segment: segmentIndex)
    }

    /// The start of an element's span, else `fallback`, else line 1 column 1. `fallback` is evaluated only
    /// when there is no span (a segment tag lookup builds the location table).
    public func location(_ span: SourceSpan?, fallback: @autoclosure () -> SourceLocation? = nil) -> SourceLocation {
        if let span { return span.location }
        return fallback() ?? .start
    }

    /// True when the parser found the element's tag lacking a required attribute (and reported that): its
    /// placeholder values (a missing NAME read as `""`) would only repeat the error in rules that compare.
    public func lacksRequiredAttribute(_ span: SourceSpan?) -> Bool {
        guard let span, let parseInfo, !parseInfo.tagsLackingRequiredAttributes.isEmpty else { return false }
        return parseInfo.tagsLackingRequiredAttributes.contains(span.byteRange.lowerBound)
    }

    /// Where whole-playlist problems are reported: the `#EXTM3U` line, else 1:1.
    public var playlistLocation: SourceLocation { parseInfo?.extm3uLocation ?? .start }
}

/// ``SegmentTagLocations`` built from the tag occurrences when first asked.
final class LazySegmentTagLocations: Sendable {
    private let occurrences: [TagOccurrence]
    private let table = Mutex<SegmentTagLocations?>(nil)

    init(_ occurrences: [TagOccurrence]) { self.occurrences = occurrences }

    func location(of tag: TagName, segment: Int) -> SourceLocation? {
        table.withLock { table in
            let built = table ?? SegmentTagLocations(occurrences)
            table = built
            return built.location(of: tag, segment: segment)
        }
    }
}

/// Where each media segment tag was first written for each segment: per tag, (segment index, location) in
/// segment order, found by binary search. Built in one pass over the tag occurrences without hashing (a
/// playlist of 100,000 segments has several hundred thousand occurrences).
struct SegmentTagLocations: Sendable {
    private var tags: [TagName] = []
    private var segments: [[Int]] = []
    private var locations: [[SourceLocation]] = []

    init(_ occurrences: [TagOccurrence]) {
        for occurrence in occurrences where occurrence.tag.isMediaSegmentTag {
            add(occurrence.tag, segment: occurrence.segmentIndex, at: occurrence.location)
        }
    }

    /// Records `location` for `tag` on segment `segment`, unless an earlier one was recorded for it. The
    /// parser reports occurrences in segment order.
    mutating func add(_ tag: TagName, segment: Int, at location: SourceLocation) {
        let slot: Int
        if let found = tags.firstIndex(of: tag) {
            slot = found
        } else {
            tags.append(tag)
            segments.append([])
            locations.append([])
            slot = tags.count - 1
        }
        if let last = segments[slot].last, last >= segment { return }
        segments[slot].append(segment)
        locations[slot].append(location)
    }

    func location(of tag: TagName, segment: Int) -> SourceLocation? {
        guard let slot = tags.firstIndex(of: tag) else { return nil }
        let list = segments[slot]
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < segment { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low] == segment ? locations[slot][low] : nil
    }
}

extension Diagnostic {
    static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, _ reference: String
    ) -> Diagnostic {
        Diagnostic(severity: .error, code: code, message: message, location: location, specReference: reference)
    }

    static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation, _ reference: String
    ) -> Diagnostic {
        Diagnostic(severity: .warning, code: code, message: message, location: location, specReference: reference)
    }
}
