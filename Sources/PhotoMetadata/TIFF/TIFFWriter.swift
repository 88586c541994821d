/// Writes `ExifMetadata` as a TIFF structure (header, IFD0 → ExifIFD → Interop, GPS, IFD1 and its thumbnail), in
/// the metadata's byte order, every entry's value bytes as they are.
///
///     let written = TIFFWriter.write(metadata.forUprightCopy(width: 4032, height: 3024))
///     written.bytes      // from the TIFF header on: what follows "Exif\0\0" in a JPEG APP1 segment
///
/// Layout: the header, then each IFD followed by its out-of-line values (each at an even offset), IFD0's next IFD
/// being IFD1. The IFD pointers are written to where the IFDs now are. Entries are written in ascending tag order,
/// each tag once (`IFD.inTagOrder`: of a repeated tag, the first entry), as TIFF 6.0 §2 asks.
///
/// The MakerNote: camera makers' notes often hold offsets counted from the TIFF header, which break when the
/// note moves, so by default (`.keepOffset`) it is written at the offset it had in the source and everything else
/// is laid out around it (a gap of zeros may precede it). `.relocate` puts it wherever the layout reaches (notes
/// with self-relative offsets survive that), `.drop` leaves it out; both add a note to the warnings.
public enum TIFFWriter {
    public enum MakerNotePlacement: Sendable {
        case keepOffset, relocate, drop
    }

    public struct Result: Sendable {
        public var bytes: [UInt8]
        public var warnings: [MetadataWarning]
    }

    public static func write(_ metadata: ExifMetadata, makerNote placement: MakerNotePlacement = .keepOffset) -> Result
    {
        var warnings: [MetadataWarning] = []
        var metadata = metadata
        let order = metadata.byteOrder
        metadata.ifd0 = metadata.ifd0.inTagOrder()
        metadata.exif = metadata.exif?.inTagOrder()
        metadata.gps = metadata.gps?.inTagOrder()
        metadata.interop = metadata.interop?.inTagOrder()
        metadata.ifd1 = metadata.ifd1?.inTagOrder()
        if placement == .drop, var exif = metadata.exif, exif[ExifTag.makerNote] != nil {
            exif.remove(ExifTag.makerNote)
            metadata.exif = exif
            warnings.append(
                MetadataWarning(.note, code: "exif.makernote-dropped", "the MakerNote is not carried (it does not fit)")
            )
        }
        if var ifd1 = metadata.ifd1 {
            if metadata.thumbnail == nil {
                ifd1.remove(ExifTag.jpegInterchangeFormat)
                ifd1.remove(ExifTag.jpegInterchangeFormatLength)
            }
            // Strip offsets (an uncompressed thumbnail) cannot be carried without the strips.
            metadata.ifd1 = ifd1[0x0111] == nil ? ifd1 : nil
        }
        // The IFDs in writing order, each with its pointer entries present exactly when their target is.
        var ifds: [IFD] = []
        for kind in [IFDKind.ifd0, .exif, .interop, .gps, .ifd1] {
            guard var ifd = metadata.ifd(kind) else { continue }
            for target in [IFDKind.exif, .gps, .interop] {
                guard let tag = pointerTag(to: target, in: kind) else { continue }
                if metadata.ifd(target) == nil {
                    ifd.remove(tag)
                } else if ifd[tag] == nil {
                    ifd.set(.long(tag, 0, order: order))
                }
            }
            if kind == .ifd1, let thumbnail = metadata.thumbnail {
                ifd.set(.long(ExifTag.jpegInterchangeFormat, 0, order: order))
                ifd.set(
                    .integer(
                        ExifTag.jpegInterchangeFormatLength, UInt32(thumbnail.count),
                        preferring: ifd[ExifTag.jpegInterchangeFormatLength]?.type ?? .long, order: order))
            }
            ifds.append(ifd)
        }

        // Offsets: each IFD table, then its out-of-line values; the MakerNote's region is kept free for it.
        var reserved: Range<Int>?
        if placement == .keepOffset, let note = metadata.makerNote, note.bytes.count > 4,
            let source = note.sourceOffset,
            source >= 8
        {
            reserved = source..<(source + note.bytes.count)
        }
        var cursor = 8
        func place(_ size: Int) -> Int {
            cursor += cursor & 1
            if let reserved, cursor < reserved.upperBound, cursor + size > reserved.lowerBound {
                cursor = reserved.upperBound + (reserved.upperBound & 1)
            }
            defer { cursor += size }
            return cursor
        }
        var tableOffsets: [IFDKind: Int] = [:]
        var valueOffsets: [IFDKind: [Int: Int]] = [:]  // entry index → offset
        var thumbnailOffset = 0
        for ifd in ifds {
            tableOffsets[ifd.kind] = place(2 + 12 * ifd.entries.count + 4)
            for (index, entry) in ifd.entries.enumerated() where entry.bytes.count > 4 {
                if ifd.kind == .exif, entry.tag == ExifTag.makerNote, let reserved {
                    valueOffsets[ifd.kind, default: [:]][index] = reserved.lowerBound
                } else {
                    valueOffsets[ifd.kind, default: [:]][index] = place(entry.bytes.count)
                }
            }
            if ifd.kind == .ifd1, let thumbnail = metadata.thumbnail { thumbnailOffset = place(thumbnail.count) }
        }
        if placement == .relocate, let note = metadata.makerNote, note.sourceOffset != nil,
            let index = metadata.exif?.entries.firstIndex(where: { $0.tag == ExifTag.makerNote }),
            valueOffsets[.exif]?[index] != note.sourceOffset
        {
            warnings.append(
                MetadataWarning(
                    .note, code: "exif.makernote-moved",
                    "the MakerNote moved from offset \(note.sourceOffset ?? 0) to \(valueOffsets[.exif]?[index] ?? 0); offsets inside it that count from the TIFF header may now be wrong"
                ))
        }
        let size = max(cursor, reserved?.upperBound ?? 0)

        var out = [UInt8](repeating: 0, count: size)
        func put(_ bytes: [UInt8], at offset: Int) { out.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
        put(order.marker + order.bytes(UInt16(42)) + order.bytes(UInt32(tableOffsets[.ifd0] ?? 8)), at: 0)
        for ifd in ifds {
            guard let table = tableOffsets[ifd.kind] else { continue }
            put(order.bytes(UInt16(ifd.entries.count)), at: table)
            for (index, entry) in ifd.entries.enumerated() {
                var value = entry.bytes
                if let target = ExifTag.pointer(entry.tag, in: ifd.kind), let offset = tableOffsets[target] {
                    value = order.bytes(UInt32(offset))
                    put(
                        order.bytes(entry.tag) + order.bytes(TIFFType.long.rawValue) + order.bytes(UInt32(1)) + value,
                        at: table + 2 + 12 * index)
                    continue
                }
                if ifd.kind == .ifd1, entry.tag == ExifTag.jpegInterchangeFormat, metadata.thumbnail != nil {
                    value = order.bytes(UInt32(thumbnailOffset))
                }
                var field: [UInt8]
                if value.count > 4, let offset = valueOffsets[ifd.kind]?[index] {
                    put(value, at: offset)
                    field = order.bytes(UInt32(offset))
                } else {
                    field = value + [UInt8](repeating: 0, count: 4 - value.count)
                }
                put(
                    order.bytes(entry.tag) + order.bytes(entry.type.rawValue) + order.bytes(entry.count) + field,
                    at: table + 2 + 12 * index)
            }
            let next = ifd.kind == .ifd0 ? (tableOffsets[.ifd1] ?? 0) : 0
            put(order.bytes(UInt32(next)), at: table + 2 + 12 * ifd.entries.count)
        }
        if let thumbnail = metadata.thumbnail, metadata.ifd1 != nil { put(thumbnail, at: thumbnailOffset) }
        return Result(bytes: out, warnings: warnings)
    }

    /// The tag in an IFD of `kind` that points to `target`, if that IFD holds such a pointer.
    static func pointerTag(to target: IFDKind, in kind: IFDKind) -> UInt16? {
        switch (kind, target) {
        case (.ifd0, .exif): ExifTag.exifIFDPointer
        case (.ifd0, .gps): ExifTag.gpsIFDPointer
        case (.exif, .interop): ExifTag.interopIFDPointer
        default: nil
        }
    }
}
