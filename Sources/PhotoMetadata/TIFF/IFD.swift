/// Which image file directory of an EXIF structure an IFD is (CIPA DC-008 §4.6).
public enum IFDKind: String, Sendable, Hashable, CaseIterable {
    /// The primary image's TIFF tags (Make, Model, Orientation, DateTime, …) and the pointers to ExifIFD and GPS.
    case ifd0 = "IFD0"
    /// Camera settings (exposure, aperture, ISO, capture time, lens, …) and the pointer to the Interop IFD.
    case exif = "ExifIFD"
    case gps = "GPS"
    case interop = "InteropIFD"
    /// The embedded thumbnail's tags.
    case ifd1 = "IFD1"
}

/// One IFD: its entries, in ascending tag order and each tag once as TIFF 6.0 §2 asks. `TIFFReader` puts a source's
/// entries in that order (the first of a repeated tag kept, with a warning) and `TIFFWriter` writes them so.
public struct IFD: Sendable, Hashable {
    public var kind: IFDKind
    public var entries: [IFDEntry]

    public init(kind: IFDKind, entries: [IFDEntry] = []) {
        self.kind = kind
        self.entries = entries
    }

    /// The first entry with `tag`, or nil.
    public subscript(tag: UInt16) -> IFDEntry? {
        entries.first { $0.tag == tag }
    }

    /// Replaces the entry with `entry.tag` in place, or inserts it before the first entry with a higher tag.
    public mutating func set(_ entry: IFDEntry) {
        if let index = entries.firstIndex(where: { $0.tag == entry.tag }) {
            entries[index] = entry
        } else {
            entries.insert(entry, at: entries.firstIndex { $0.tag > entry.tag } ?? entries.endIndex)
        }
    }

    /// Removes every entry with `tag`.
    public mutating func remove(_ tag: UInt16) { entries.removeAll { $0.tag == tag } }

    /// Whether the entries are in ascending tag order with no tag repeated.
    public var isInTagOrder: Bool { zip(entries, entries.dropFirst()).allSatisfy { $0.tag < $1.tag } }

    /// The IFD with its entries in ascending tag order, each tag once: of a repeated tag, the first entry is kept.
    ///
    ///     IFD(kind: .ifd0, entries: [orientation6, make, orientation3]).inTagOrder().entries  // [make, orientation6]
    public func inTagOrder() -> IFD {
        guard !isInTagOrder else { return self }
        var seen: Set<UInt16> = []
        var copy = self
        copy.entries = entries.filter { seen.insert($0.tag).inserted }.sorted { $0.tag < $1.tag }
        return copy
    }
}
