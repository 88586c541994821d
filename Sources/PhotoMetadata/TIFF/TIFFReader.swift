/// Reads the TIFF structure that holds EXIF metadata into `ExifMetadata`, keeping every entry it can locate.
///
///     let result = TIFFReader.read(tiffBytes)        // bytes from the TIFF header ("II*\0" or "MM\0*") on
///     result.metadata?.value(ExifTag.fNumber, in: .exif)
///     result.warnings                                // what could not be read, and why
///
/// The layout (TIFF 6.0 §2, CIPA DC-008 §4.6): an 8-byte header (byte order, 42, offset of IFD0); each IFD is a
/// 2-byte count, 12-byte entries (tag, type, count, value or offset: values of up to 4 bytes are stored in the
/// entry) and the offset of the next IFD. IFD0's next IFD is IFD1 (the thumbnail); IFD0 points to ExifIFD and GPS,
/// ExifIFD to the Interop IFD. All offsets count from the header.
///
/// Never traps: an IFD that lies past the end, an entry whose values do not fit, an unknown type, a loop in the
/// IFD chain or pointers, more IFDs or entries than `TIFFLimits` allows — each becomes a warning, and what was
/// read before and around it is kept. Not read: BigTIFF (magic 43) and SubIFDs (`ExifTag.subIFDs`, dropped with a
/// note), and IFDs chained after IFD1 (EXIF defines none).
///
/// Each IFD is returned in ascending tag order with each tag once (`IFD.inTagOrder`): entries out of order are
/// sorted and, of a repeated tag, the first entry is kept, each with a warning (`exif.entry-order`,
/// `exif.duplicate-tag`).
public enum TIFFReader {
    public struct Result: Sendable {
        /// nil when not even the header could be read.
        public var metadata: ExifMetadata?
        public var warnings: [MetadataWarning]
    }

    public static func read(_ bytes: [UInt8], limits: TIFFLimits = TIFFLimits()) -> Result {
        var reader = Reader(bytes: bytes, limits: limits)
        let metadata = reader.read()
        return Result(metadata: metadata, warnings: reader.warnings)
    }

    private struct Reader {
        let bytes: [UInt8]
        let limits: TIFFLimits
        var order = ByteOrder.bigEndian
        var warnings: [MetadataWarning] = []
        /// Offsets of the IFDs read so far: a second visit is a loop.
        var visited: Set<Int> = []

        init(bytes: [UInt8], limits: TIFFLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        mutating func warn(_ code: String, _ message: String) { warnings.append(MetadataWarning(code: code, message)) }

        mutating func read() -> ExifMetadata? {
            guard bytes.count <= limits.maximumBytes else {
                warn(
                    "exif.too-large",
                    "EXIF block of \(bytes.count) bytes is larger than the \(limits.maximumBytes)-byte limit; not read")
                return nil
            }
            guard bytes.count >= 8 else {
                warn("exif.truncated", "EXIF block of \(bytes.count) bytes is too short for a TIFF header")
                return nil
            }
            switch (bytes[0], bytes[1]) {
            case (0x49, 0x49): order = .littleEndian
            case (0x4D, 0x4D): order = .bigEndian
            default:
                warn("exif.byte-order", "EXIF block does not start with a TIFF byte order mark (II or MM)")
                return nil
            }
            let magic = order.uint16(bytes, at: 2) ?? 0
            guard magic == 42 else {
                warn(
                    "exif.magic",
                    magic == 43 ? "BigTIFF is not supported in EXIF" : "TIFF header magic is \(magic), not 42")
                return nil
            }
            let firstOffset = Int(order.uint32(bytes, at: 4) ?? 0)
            guard var ifd0 = readIFD(at: firstOffset, kind: .ifd0, depth: 0) else {
                return ExifMetadata(byteOrder: order, ifd0: IFD(kind: .ifd0))
            }
            var metadata = ExifMetadata(byteOrder: order, ifd0: ifd0.ifd)
            metadata.exif = readPointed(.exif, from: &ifd0.ifd, depth: 1)
            metadata.gps = readPointed(.gps, from: &ifd0.ifd, depth: 1)
            if var exif = metadata.exif {
                metadata.interop = readPointed(.interop, from: &exif, depth: 2)
                metadata.exif = exif
            }
            if ifd0.ifd[ExifTag.subIFDs] != nil {
                warnings.append(
                    MetadataWarning(
                        .note, code: "exif.subifds-dropped",
                        "IFD0 lists SubIFDs (further images of a TIFF or raw file); they are not carried"))
                ifd0.ifd.remove(ExifTag.subIFDs)
            }
            metadata.ifd0 = ifd0.ifd
            if let next = ifd0.next, next != 0, let ifd1 = readIFD(at: next, kind: .ifd1, depth: 0) {
                metadata.thumbnail = thumbnail(of: ifd1.ifd)
                metadata.ifd1 = ifd1.ifd
                if let after = ifd1.next, after != 0 {
                    warnings.append(
                        MetadataWarning(
                            .note, code: "exif.extra-ifds",
                            "IFDs chained after IFD1 (at offset \(after)) are not read"))
                }
            }
            metadata.ifd0 = inTagOrder(metadata.ifd0)
            metadata.exif = metadata.exif.map { inTagOrder($0) }
            metadata.gps = metadata.gps.map { inTagOrder($0) }
            metadata.interop = metadata.interop.map { inTagOrder($0) }
            metadata.ifd1 = metadata.ifd1.map { inTagOrder($0) }
            return metadata
        }

        /// `ifd` in ascending tag order with each tag once (`IFD.inTagOrder`), with a warning for repeated tags (the
        /// first entry of each is kept, as `IFD`'s subscript reads it) and one for entries out of order.
        mutating func inTagOrder(_ ifd: IFD) -> IFD {
            guard !ifd.isInTagOrder else { return ifd }
            var seen: Set<UInt16> = [], repeated: [UInt16] = []
            for entry in ifd.entries where !seen.insert(entry.tag).inserted && !repeated.contains(entry.tag) {
                repeated.append(entry.tag)
            }
            if !repeated.isEmpty {
                let named = repeated.prefix(8).map { "0x" + String($0, radix: 16, uppercase: true) }
                let more = repeated.count > 8 ? " and \(repeated.count - 8) more" : ""
                warn(
                    "exif.duplicate-tag",
                    "\(ifd.kind.rawValue) repeats tag\(repeated.count == 1 ? "" : "s") \(named.joined(separator: ", "))\(more); the first entry of each is kept"
                )
            }
            let kept = ifd.inTagOrder()
            var firsts: Set<UInt16> = []
            let order = ifd.entries.filter { firsts.insert($0.tag).inserted }.map(\.tag)
            if order != kept.entries.map(\.tag) {
                warn(
                    "exif.entry-order",
                    "\(ifd.kind.rawValue)'s entries are not in ascending tag order; they are written in that order")
            }
            return kept
        }

        /// Follows the pointer entry to `kind` in `parent`; a pointer that cannot be followed is removed, so the
        /// writer does not write a dangling one.
        mutating func readPointed(_ kind: IFDKind, from parent: inout IFD, depth: Int) -> IFD? {
            guard let entry = parent.entries.first(where: { ExifTag.pointer($0.tag, in: parent.kind) == kind }) else {
                return nil
            }
            let offset = entry.count == 1 ? entry.value(order)?.firstInteger : nil
            guard let offset else {
                warn(
                    "exif.pointer-type",
                    "\(parent.kind.rawValue) pointer to \(kind.rawValue) is not one LONG (type \(entry.type), count \(entry.count)); not followed"
                )
                parent.remove(entry.tag)
                return nil
            }
            guard depth <= limits.maximumDepth else {
                warn("exif.depth", "\(kind.rawValue) is nested deeper than \(limits.maximumDepth) IFDs; not read")
                parent.remove(entry.tag)
                return nil
            }
            guard let read = readIFD(at: Int(offset), kind: kind, depth: depth) else {
                parent.remove(entry.tag)
                return nil
            }
            if let next = read.next, next != 0 {
                warnings.append(
                    MetadataWarning(
                        .note, code: "exif.sub-ifd-chain",
                        "\(kind.rawValue) names a next IFD (offset \(next)); ignored"))
            }
            return read.ifd
        }

        /// The IFD at `offset` and the offset of the next one (nil when it could not be read).
        mutating func readIFD(at offset: Int, kind: IFDKind, depth: Int) -> (ifd: IFD, next: Int?)? {
            guard visited.count < limits.maximumIFDs else {
                warn(
                    "exif.ifd-count",
                    "more than \(limits.maximumIFDs) IFDs; \(kind.rawValue) at offset \(offset) not read")
                return nil
            }
            guard !visited.contains(offset) else {
                warn(
                    "exif.ifd-loop",
                    "\(kind.rawValue) at offset \(offset) was already read: a loop in the IFD links; not read again")
                return nil
            }
            guard offset >= 8, let declared = order.uint16(bytes, at: offset) else {
                warn(
                    "exif.ifd-offset",
                    "\(kind.rawValue) at offset \(offset) lies outside the \(bytes.count)-byte EXIF block")
                return nil
            }
            visited.insert(offset)
            var count = Int(declared)
            let fitting = (bytes.count - offset - 2) / 12
            if count > fitting {
                warn(
                    "exif.entries-truncated",
                    "\(kind.rawValue) at offset \(offset) declares \(count) entries but only \(fitting) fit in the block"
                )
                count = fitting
            }
            if count > limits.maximumEntriesPerIFD {
                warn(
                    "exif.entry-count",
                    "\(kind.rawValue) has \(count) entries; only the first \(limits.maximumEntriesPerIFD) are read")
                count = limits.maximumEntriesPerIFD
            }
            var ifd = IFD(kind: kind)
            ifd.entries.reserveCapacity(count)
            for index in 0..<count {
                if let entry = readEntry(at: offset + 2 + 12 * index, in: kind) { ifd.entries.append(entry) }
            }
            let nextAt = offset + 2 + 12 * Int(declared)
            let next = order.uint32(bytes, at: nextAt).map(Int.init)
            if next == nil && Int(declared) == count {
                warn("exif.next-offset", "\(kind.rawValue)'s next-IFD offset lies past the end of the block")
            }
            return (ifd, next)
        }

        mutating func readEntry(at position: Int, in kind: IFDKind) -> IFDEntry? {
            guard let tag = order.uint16(bytes, at: position), let rawType = order.uint16(bytes, at: position + 2),
                let count = order.uint32(bytes, at: position + 4)
            else { return nil }
            let type = TIFFType(rawValue: rawType)
            let name = "\(kind.rawValue) tag 0x\(String(tag, radix: 16, uppercase: true))"
            guard let size = type.elementSize else {
                warn("exif.unknown-type", "\(name) has unknown type \(rawType); dropped (its size is unknown)")
                return nil
            }
            let (total, overflow) = Int(count).multipliedReportingOverflow(by: size)
            guard !overflow, total <= bytes.count else {
                warn(
                    "exif.count-past-end",
                    "\(name) declares \(count) values of \(type): more than the \(bytes.count)-byte block holds; dropped"
                )
                return nil
            }
            if total <= 4 {
                return IFDEntry(
                    tag: tag, type: type, count: count, bytes: Array(bytes[(position + 8)..<(position + 8 + total)]))
            }
            guard let offset = order.uint32(bytes, at: position + 8).map(Int.init), offset <= bytes.count - total else {
                warn(
                    "exif.value-offset",
                    "\(name)'s \(total) value bytes lie past the end of the \(bytes.count)-byte block; dropped")
                return nil
            }
            return IFDEntry(
                tag: tag, type: type, count: count, bytes: Array(bytes[offset..<(offset + total)]), sourceOffset: offset
            )
        }

        /// The JPEG thumbnail IFD1 points to, when its offset and length are inside the block.
        mutating func thumbnail(of ifd1: IFD) -> [UInt8]? {
            guard let start = ifd1[ExifTag.jpegInterchangeFormat]?.value(order)?.firstInteger.map(Int.init),
                let length = ifd1[ExifTag.jpegInterchangeFormatLength]?.value(order)?.firstInteger.map(Int.init)
            else { return nil }
            guard start <= bytes.count, length <= bytes.count - start else {
                warn(
                    "exif.thumbnail-offset",
                    "the thumbnail (\(length) bytes at offset \(start)) lies past the end of the block")
                return nil
            }
            return Array(bytes[start..<(start + length)])
        }
    }
}
