/// Bounds the TIFF reader keeps to on any input, so a hostile structure costs little time and memory.
///
/// Real camera files have 2–5 IFDs of up to about 100 entries, nested two deep (IFD0 → ExifIFD → Interop), in
/// at most 64 KB (a JPEG APP1 segment); the defaults leave a wide margin.
public struct TIFFLimits: Sendable, Hashable {
    /// IFDs read in all (the IFD chain, the pointed-to IFDs); past it the rest is skipped with a warning.
    public var maximumIFDs: Int
    /// Entries read per IFD; the rest of a larger IFD is skipped with a warning.
    public var maximumEntriesPerIFD: Int
    /// How deep IFD pointers are followed: IFD0 is depth 0, ExifIFD and GPS 1, Interop 2.
    public var maximumDepth: Int
    /// A larger structure is not read at all (a warning says so).
    public var maximumBytes: Int

    public init(
        maximumIFDs: Int = 16, maximumEntriesPerIFD: Int = 1024, maximumDepth: Int = 3,
        maximumBytes: Int = 16 << 20
    ) {
        self.maximumIFDs = maximumIFDs
        self.maximumEntriesPerIFD = maximumEntriesPerIFD
        self.maximumDepth = maximumDepth
        self.maximumBytes = maximumBytes
    }
}
