import PhotoMetadata

/// Builds TIFF bytes by hand, offsets and all, so the tests can write what no well-behaved writer would.
struct RawTIFF {
    let order: ByteOrder
    var bytes: [UInt8]

    /// The header: byte order, 42, the offset of IFD0.
    init(_ order: ByteOrder = .bigEndian, ifd0: UInt32 = 8, magic: UInt16 = 42) {
        self.order = order
        bytes = order.marker + order.bytes(magic) + order.bytes(ifd0)
    }

    /// One 12-byte entry: tag, type, count, and the value field (padded to four bytes).
    func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ field: [UInt8]) -> [UInt8] {
        order.bytes(tag) + order.bytes(type) + order.bytes(count) + field
            + [UInt8](repeating: 0, count: max(0, 4 - field.count))
    }

    /// A SHORT entry with its value in the field.
    func short(_ tag: UInt16, _ value: UInt16) -> [UInt8] { entry(tag, 3, 1, order.bytes(value)) }

    /// A LONG entry with its value (or an offset) in the field.
    func long(_ tag: UInt16, _ value: UInt32) -> [UInt8] { entry(tag, 4, 1, order.bytes(value)) }

    /// An IFD at `offset`: a count (`declaredCount`, default the entries'), the entries, the next offset.
    mutating func ifd(at offset: Int, _ entries: [[UInt8]], next: UInt32 = 0, declaredCount: UInt16? = nil) {
        put(
            order.bytes(declaredCount ?? UInt16(entries.count)) + entries.flatMap { $0 } + order.bytes(next), at: offset
        )
    }

    /// `data` at `offset`, zero-filling any gap.
    mutating func put(_ data: [UInt8], at offset: Int) {
        if bytes.count < offset + data.count {
            bytes += [UInt8](repeating: 0, count: offset + data.count - bytes.count)
        }
        bytes.replaceSubrange(offset..<(offset + data.count), with: data)
    }
}

extension Array where Element == MetadataWarning {
    /// The warning codes, in order.
    var codes: [String] { map(\.code) }
}
