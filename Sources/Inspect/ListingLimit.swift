import CLIKit

/// How much `filterz inspect` lists, so that a huge or hostile playlist gives a bounded report: every list
/// (variants, I-frame variants, renditions, segments, diagnostics, child playlists) stops after `items` with a
/// line `… and N more <things>` (in JSON: the first `items`, and a `truncated` member with the full lengths),
/// while every count and the exit status still cover everything.
public enum ListingLimit {
    /// Items of one list.
    public static let items = 1000
    /// Names joined on one line (`variables`, `session data`).
    public static let namesOnOneLine = 20
    /// Problems listed under each child playlist of `--recursive` (its status column counts them all).
    public static let childProblems = 20
    /// Child playlists `--recursive` loads (distinct locations); references beyond are listed as not loaded.
    public static let childPlaylists = 1000
    /// List items in all the children's facts of `--recursive --json`, so that many children that repeat one
    /// huge playlist do not repeat its lists without end.
    public static let childFactItems = 100_000

    /// `  … and 119,240 more variants`, or nil when nothing was left out.
    public static func more(_ count: Int, _ noun: String, indent: Int) -> String? {
        guard count > 0 else { return nil }
        return String(repeating: " ", count: indent) + "… and \(count) more \(noun)"
    }

    /// The first `namesOnOneLine` names joined by commas, then `… and N more`.
    public static func names(_ names: [String]) -> String {
        let shown = names.prefix(namesOnOneLine).joined(separator: ", ")
        return names.count > namesOnOneLine ? shown + ", … and \(names.count - namesOnOneLine) more" : shown
    }
}
