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

/// One IFD: its entries in the order the source wrote them (TIFF asks for ascending tags; the order is kept either way).
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
}
