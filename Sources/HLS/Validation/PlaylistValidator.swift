/// Checks a parsed playlist against the rules of RFC 8216bis and the Apple HLS Authoring Specification that
/// the parser's syntax checks do not cover (cross-tag and whole-playlist rules).
///
/// Rules are values conforming to ``ValidationRule``, one per spec rule, composed from a list:
/// ```swift
/// let problems = PlaylistValidator().validate(playlist)            // every standard rule
/// let only = PlaylistValidator(rules: [TargetDurationRequired()]) // a chosen few
/// ```
/// Diagnostics come back sorted by position. Use ``parseAndValidate(_:options:)`` to get the parser's and the
/// validator's diagnostics together.
public struct PlaylistValidator: Sendable {
    public var rules: [any ValidationRule]

    public init(rules: [any ValidationRule] = PlaylistValidator.standardRules) {
        self.rules = rules
    }

    /// Every rule, in the order their diagnostics are listed for one line.
    public static let standardRules: [any ValidationRule] = [
        // Media playlists.
        TargetDurationRequired(),
        SegmentDurationsWithinTargetDuration(),
        SequenceTagsBeforeFirstSegment(),
        NonNegativeNumbers(),
        SequenceNumbersCountable(),
        TargetDurationsWithinPlayerTimers(),
        ByteRangeOffsetsResolvable(),
        DateRangeStartDateRequired(),
        KeyAttributesFitMethod(),
        // Both kinds.
        ProtocolVersionCoversFeatures(),
        TagsMatchPlaylistKind(),
        PlaylistTagsAppearOnce(),
        // Low-Latency HLS.
        PartInfRequiredWithParts(),
        PartDurationsWithinPartTarget(),
        CanSkipUntilAtLeastSixTargetDurations(),
        HoldBackAtLeastThreeTargetDurations(),
        PartHoldBackAtLeastTwoPartTargets(),
        PartDurationsAtLeast85PercentOfPartTarget(),
        PreloadHintOncePerType(),
        PreloadHintNamesTheNextPart(),
        BlockingReloadWithParts(),
        // Multivariant playlists.
        RenditionGroupsDefined(),
        RenditionNamesUniqueInGroup(),
        SingleDefaultRenditionPerGroup(),
        RenditionURIMatchesType(),
        ImportOnlyInMediaPlaylists(),
        // Apple HLS Authoring Specification (warnings).
        VariantAttributesRecommended(),
        IndependentSegmentsRecommended(),
    ]

    /// Every problem the rules find, sorted by line and column (stable for one position). With two threads
    /// lent, the rules at even and at odd places in the list run at the same time; the result is the same.
    public func validate(_ playlist: Playlist, parallel: ParallelPair? = nil) -> [Diagnostic] {
        let context = ValidationContext(playlist: playlist)
        let found: [Diagnostic]
        if let parallel, rules.count > 1 {
            let even = EveryOtherRule(rules, from: 0, context), odd = EveryOtherRule(rules, from: 1, context)
            parallel.run({ even.check() }, { odd.check() })
            found = rules.indices.flatMap { $0 % 2 == 0 ? even.found[$0 / 2] : odd.found[$0 / 2] }
        } else {
            found = rules.flatMap { $0.check(context) }
        }
        return found.enumerated().sorted { a, b in
            a.element.location != b.element.location ? a.element.location < b.element.location : a.offset < b.offset
        }.map(\.element)
    }

    /// ``validate(_:parallel:)`` with the standard rules.
    public static func validate(_ playlist: Playlist, parallel: ParallelPair? = nil) -> [Diagnostic] {
        PlaylistValidator().validate(playlist, parallel: parallel)
    }
}

/// The findings of every other rule from `start`, one list per rule: checked on one of the two threads and
/// read after both finished.
private final class EveryOtherRule: @unchecked Sendable {
    let rules: [any ValidationRule]
    let start: Int
    let context: ValidationContext
    var found: [[Diagnostic]] = []

    init(_ rules: [any ValidationRule], from start: Int, _ context: ValidationContext) {
        self.rules = rules
        self.start = start
        self.context = context
    }

    func check() { found = stride(from: start, to: rules.count, by: 2).map { rules[$0].check(context) } }
}

/// One rule of the validator: looks at a playlist and reports what breaks the rule.
///
/// A rule is a small value type named after the rule, with the spec sentence it enforces in its doc comment
/// and its stable code(s) as ``DiagnosticCode`` constants.
public protocol ValidationRule: Sendable {
    func check(_ context: ValidationContext) -> [Diagnostic]
}

/// Parses and validates in one step: the parser's diagnostics and the validator's, merged in position order.
///
/// With `options.strict` the first error ends it: the result has no playlist and only the diagnostics up to
/// and including that error.
public func parseAndValidate(_ bytes: [UInt8], options: ParseOptions = ParseOptions()) -> ParseResult {
    var result = parse(bytes, options: options)
    guard let playlist = result.playlist else { return result }
    let found = PlaylistValidator.validate(playlist, parallel: options.parallel)
    // The parser may already have reported a problem a rule also sees (same code, same place): keep one.
    let known = Set(result.diagnostics.map { DiagnosticKey($0) })
    var merged = result.diagnostics
    merged.append(contentsOf: found.filter { !known.contains(DiagnosticKey($0)) })
    merged = merged.enumerated().sorted { a, b in
        a.element.location != b.element.location ? a.element.location < b.element.location : a.offset < b.offset
    }.map(\.element)
    if options.strict, let firstError = merged.firstIndex(where: { $0.severity == .error }) {
        return ParseResult(playlist: nil, diagnostics: Array(merged[...firstError]))
    }
    result.diagnostics = merged
    return result
}

/// Two diagnostics count as the same report when code and position agree.
private struct DiagnosticKey: Hashable {
    var code: DiagnosticCode
    var location: SourceLocation
    init(_ diagnostic: Diagnostic) {
        code = diagnostic.code
        location = diagnostic.location
    }
}
