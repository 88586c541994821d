/// A large media playlist parsed as two halves at once (``ParseOptions/parallel``).
///
/// The reference is the one pass, `scanLines()` over the whole input: this must give exactly its result, and
/// `HalvesAgreementTests` keeps the two equal. The input is cut just after a URI line near its middle. The
/// calling thread reads the first half as usual while a second parser reads the rest, starting from what it
/// can know without the first half: the line number (it counts the LFs before the cut), a media playlist, no
/// variables, a segment completed just before the cut. It gives up at the first line whose meaning could depend
/// on anything else (every tag but the media segment tags and EXT-X-ENDLIST). When both are done, the first
/// half's final state is checked against those assumptions; if they hold, the second half's segments, tags and
/// diagnostics are appended, otherwise its work is dropped and the first parser reads the rest itself.
extension PlaylistParser {
    /// Below this size the whole input is read in one pass: a second thread would save less than it costs.
    static let minimumBytesForHalves = 1 << 20

    /// Reads every line: in two halves at once when threads are lent, the input is large and lenient, and a
    /// cut is found; otherwise in one pass.
    mutating func scanAllLines() {
        if let forcedCut {
            return scanLines(inHalvesAt: forcedCut, options.parallel ?? .sequential)
        }
        guard let parallel = options.parallel, !options.strict, buffer.count >= Self.minimumBytesForHalves,
            let cut = buffer.cutAfterURILine(near: buffer.count / 2)
        else {
            return scanLines()
        }
        scanLines(inHalvesAt: cut, parallel)
    }

    /// Reads `0..<cut` here and `cut...` on the lent thread, then keeps the second half's work if its
    /// assumptions held (the result is the one pass's either way). `cut` must start a line.
    mutating func scanLines(inHalvesAt cut: Int, _ parallel: ParallelPair) {
        let rest = SecondHalf(PlaylistParser(continuingAt: cut, of: self))
        parallel.run({ self.scanLines(to: cut) }, { rest.read() })
        if rest.parser.assumptionsHold(after: self) {
            adopt(&rest.parser)
            keptSecondHalf = true
        } else {
            scanLines(from: cut)
        }
    }

    /// A parser for the lines from `cut` on, assuming a media playlist without variables whose segment ended
    /// at `cut`; `read()` sets its line number.
    private init(continuingAt cut: Int, of first: PlaylistParser) {
        bytes = first.bytes
        // An owner of its own for the same bytes: every URI holds a reference to its owner, and two threads
        // retaining one object would pass its reference count's cache line back and forth.
        parsedBytes = ParsedBytes(first.bytes)
        options = first.options
        buffer = first.buffer
        kind = .media
        continuation = cut
        lastSegmentEnd = cut
    }

    /// True when `first`, having read `0..<continuation`, ended in the state this parser started from, and
    /// the two halves' diagnostics together stay under the limit (so none would have been dropped).
    private func assumptionsHold(after first: PlaylistParser) -> Bool {
        guard let cut = continuation, !stopped else { return false }
        return !first.stopped && first.kind == .media && first.definedNames.isEmpty && first.lineNumber == firstLine
            && first.lastSegmentEnd == cut && !first.pendingInArray && !first.pendingHasExtinf
            && !first.pendingHasTags && first.pendingStart == nil
            && !first.droppedDiagnostics && !droppedDiagnostics
            && first.diagnostics.count + diagnostics.count <= options.maximumDiagnosticCount
    }

    /// Appends what the second half read (its segment indices shifted past the first half's segments) and
    /// takes over its state at the end of the input.
    private mutating func adopt(_ rest: inout PlaylistParser) {
        let before = media.segments.count
        media.segments.appendByMoving(&rest.media.segments, filler: Segment(uriText: ParsedText(""), duration: 0))
        info.tagOccurrences.append(contentsOf: rest.info.tagOccurrences.lazy.map { $0.shifted(bySegments: before) })
        diagnostics.append(contentsOf: rest.diagnostics)
        info.lenientValues.append(
            contentsOf: rest.info.lenientValues.lazy.map { value in
                var moved = value
                moved.segmentIndex = value.segmentIndex.map { $0 + before }
                return moved
            })
        info.tagsLackingRequiredAttributes.formUnion(rest.info.tagsLackingRequiredAttributes)
        media.endList = media.endList || rest.media.endList
        info.usesCRLF = info.usesCRLF || rest.info.usesCRLF
        info.lineCount = rest.info.lineCount
        lineNumber = rest.lineNumber
        lineStart = rest.lineStart
        lineEnd = rest.lineEnd
        lineNext = rest.lineNext
        columnBase = rest.columnBase
        pendingInArray = rest.pendingInArray
        pendingHasExtinf = rest.pendingHasExtinf
        pendingHasTags = rest.pendingHasTags
        pendingStart = rest.pendingStart
        pendingLocation = rest.pendingLocation
        extinfLocation = rest.extinfLocation
        lastSegmentEnd = rest.lastSegmentEnd
    }

    /// In the second half, true for the tags it reads alike whatever came before the cut; any other tag makes
    /// it give up (``abandon()``).
    static func readsAlikeAfterACut(_ tag: TagName) -> Bool {
        tag.isMediaSegmentTag || tag == .endList
    }

    /// `parse(bytes, options)` read in halves cut at `cut` (a line start), and whether the second half's work
    /// was kept (tests: the cut at every line must give the one pass's result).
    static func parse(_ bytes: [UInt8], options: ParseOptions, cutAt cut: Int) -> (ParseResult, keptSecondHalf: Bool) {
        var parser = PlaylistParser(bytes: bytes, options: options)
        parser.forcedCut = cut
        var kept = false
        let result = parser.run { kept = $0 }
        return (result, kept)
    }

    /// Stops the second half: a stopped second half's work is dropped (so is one an error stopped in strict
    /// mode: the one pass then stops at the first error, wherever it is).
    mutating func abandon() {
        stopped = true
    }
}

/// The second half's parser, handed to the lent thread and read back after it finished (`ParallelPair.run`
/// returns only then, so the two threads never touch it at the same time).
private final class SecondHalf: @unchecked Sendable {
    var parser: PlaylistParser

    init(_ parser: PlaylistParser) { self.parser = parser }

    func read() {
        guard let cut = parser.continuation else { return }
        parser.lineNumber = parser.buffer.lineFeedCount(before: cut)
        parser.firstLine = parser.lineNumber
        parser.scanLines(from: cut)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The start of the line after the first URI line (a line neither empty nor starting with `#`) that begins
    /// at or after `offset`, looking at most 64 KiB ahead; nil when there is none or it is the last line.
    func cutAfterURILine(near offset: Int) -> Int? {
        var i = offset
        while i < count && self[i] != 0x0A { i += 1 }  // to the start of the next line
        i += 1
        let limit = Swift.min(count, offset + (64 << 10))
        while i < limit {
            let isURILine = self[i] != UInt8(ascii: "#") && self[i] != 0x0A && self[i] != 0x0D
            while i < count && self[i] != 0x0A { i += 1 }
            guard i < count else { return nil }
            i += 1
            if isURILine { return i < count ? i : nil }
        }
        return nil
    }
}

extension Array {
    /// Appends the elements of `other` by moving them (a bitwise move: no retain, no release), leaving `filler`
    /// in their places in `other`. Appending a copy would retain every reference each element holds, and
    /// releasing `other` then release them all again.
    mutating func appendByMoving(_ other: inout [Element], filler: Element) {
        other.withUnsafeMutableBufferPointer { source in
            append(contentsOf: MovingOut(source))
            source.initialize(repeating: filler)  // the moved-out places are uninitialized memory now
        }
    }
}

/// The elements of a buffer, each moved out as it is read; afterwards every place read is uninitialized.
private struct MovingOut<Element>: Sequence, IteratorProtocol {
    let source: UnsafeMutableBufferPointer<Element>
    var index = 0

    init(_ source: UnsafeMutableBufferPointer<Element>) { self.source = source }

    var underestimatedCount: Int { source.count - index }

    mutating func next() -> Element? {
        guard index < source.count, let base = source.baseAddress else { return nil }
        defer { index += 1 }
        return (base + index).move()
    }
}
