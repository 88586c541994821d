/// The facts of an ICC colour profile (ICC.1:2010 / ICC.1:2001-04) that a photo's detail screen shows: its colour
/// space and its name (the `desc` tag). The profile's bytes are carried whole; nothing else is interpreted.
///
/// Header: size (bytes 0–3), class (12–15), colour space (16–19, e.g. `RGB `, `GRAY`, `CMYK`), signature `acsp`
/// (36–39); the tag table at 128 (count, then signature/offset/size triples). `desc` is a `textDescriptionType`
/// (v2: ASCII) or a `multiLocalizedUnicodeType` (v4 `mluc`: UTF-16BE records; the en-US record is preferred).
public struct ICCProfile: Sendable, Hashable {
    /// The colour space signature without trailing spaces: "RGB", "GRAY", "CMYK", …
    public var colourSpace: String
    /// The profile class: "mntr" (display), "prtr", "scnr", …
    public var profileClass: String
    /// The `desc` tag's text, when present and readable.
    public var name: String?
    public var byteCount: Int

    /// Reads the header and name; nil when the bytes are not an ICC profile (too short or no `acsp` signature).
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 132, bytes[36..<40].elementsEqual("acsp".utf8) else { return nil }
        func text(_ range: Range<Int>) -> String {
            var s = String(decoding: bytes[range], as: UTF8.self)
            while s.last == " " || s.last == "\0" { s.removeLast() }
            return s
        }
        colourSpace = text(16..<20)
        profileClass = text(12..<16)
        byteCount = bytes.count
        name = Self.description(bytes)
    }

    static func description(_ bytes: [UInt8]) -> String? {
        let order = ByteOrder.bigEndian
        guard let count = order.uint32(bytes, at: 128) else { return nil }
        for index in 0..<min(Int(count), 256) {
            let entry = 132 + 12 * index
            guard let signature = order.uint32(bytes, at: entry),
                let offset = order.uint32(bytes, at: entry + 4).map(Int.init),
                let size = order.uint32(bytes, at: entry + 8).map(Int.init)
            else { return nil }
            // 0x6465_7363: "desc".
            guard signature == 0x6465_7363, offset <= bytes.count, size <= bytes.count - offset, size >= 12
            else { continue }
            let tag = Array(bytes[offset..<(offset + size)])
            switch order.uint32(tag, at: 0) {
            case 0x6465_7363:  // "desc": count (with NUL), ASCII
                guard let length = order.uint32(tag, at: 8).map(Int.init), length <= tag.count - 12 else { return nil }
                let ascii = tag[12..<(12 + length)].prefix { $0 != 0 }
                return ascii.isEmpty ? nil : String(decoding: ascii, as: UTF8.self)
            case 0x6D6C_7563:  // "mluc": records of language, country, length, offset (from the tag's start)
                guard let records = order.uint32(tag, at: 8), let recordSize = order.uint32(tag, at: 12).map(Int.init),
                    recordSize >= 12
                else { return nil }
                var chosen: (Int, Int)?
                for record in 0..<min(Int(records), 64) {
                    let at = 16 + record * recordSize
                    guard let language = order.uint16(tag, at: at), let country = order.uint16(tag, at: at + 2),
                        let length = order.uint32(tag, at: at + 4).map(Int.init),
                        let start = order.uint32(tag, at: at + 8).map(Int.init), start <= tag.count,
                        length <= tag.count - start
                    else { break }
                    if chosen == nil || (language == 0x656E && country == 0x5553) { chosen = (start, length) }
                }
                guard let (start, length) = chosen else { return nil }
                let units = stride(from: start, to: start + length - 1, by: 2).compactMap { order.uint16(tag, at: $0) }
                let text = String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
                return text.isEmpty ? nil : text
            default:
                return nil
            }
        }
        return nil
    }
}
