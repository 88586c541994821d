/// The few edits an XMP packet needs when its photo is written upright at a new size, done on the bytes (no XML
/// parser): the packet is otherwise carried byte for byte.
///
/// Properties changed where present, in attribute form (`tiff:Orientation="6"`) or element form
/// (`<tiff:Orientation>6</tiff:Orientation>`), and only when the value written is a whole number:
/// `tiff:Orientation` → 1, `tiff:ImageWidth`/`exif:PixelXDimension` → width, `tiff:ImageLength`/
/// `exif:PixelYDimension` → height. A packet's trailing padding (whitespace before `<?xpacket end`) absorbs a change
/// of length where it can, so the packet keeps its size.
public enum XMPPacket {
    public static func forUprightCopy(_ packet: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = packet
        let edits: [(String, Int)] = [
            ("tiff:Orientation", 1), ("tiff:ImageWidth", width), ("exif:PixelXDimension", width),
            ("tiff:ImageLength", height), ("exif:PixelYDimension", height),
        ]
        for (name, value) in edits {
            bytes = replacingNumber(of: name, with: value, in: bytes)
        }
        return keepingSize(bytes, of: packet)
    }

    /// The value of property `name` read as a whole number, where present (for tests and reports).
    public static func number(of name: String, in packet: [UInt8]) -> Int? {
        valueRanges(of: name, in: packet).first.flatMap { Int(String(decoding: packet[$0], as: UTF8.self)) }
    }

    static func replacingNumber(of name: String, with value: Int, in bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        // Right to left, so earlier ranges stay valid.
        for range in valueRanges(of: name, in: bytes).reversed() {
            out.replaceSubrange(range, with: Array(String(value).utf8))
        }
        return out
    }

    /// Where the whole-number values of `name` are: after `name="` / `name='` up to the quote, or after `<name>`
    /// up to `<`.
    static func valueRanges(of name: String, in bytes: [UInt8]) -> [Range<Int>] {
        let key = Array(name.utf8)
        var ranges: [Range<Int>] = []
        var index = 0
        while let found = find(key, in: bytes, from: index) {
            index = found + key.count
            let before = found > 0 ? bytes[found - 1] : 0x20
            guard before == 0x20 || before == 0x09 || before == 0x0A || before == 0x0D || before == UInt8(ascii: "<")
            else { continue }
            var start = index
            let terminator: UInt8
            if before == UInt8(ascii: "<") {
                guard start < bytes.count, bytes[start] == UInt8(ascii: ">") else { continue }
                start += 1
                terminator = UInt8(ascii: "<")
            } else {
                while start < bytes.count, bytes[start] == 0x20 { start += 1 }
                guard start + 1 < bytes.count, bytes[start] == UInt8(ascii: "=") else { continue }
                start += 1
                while start < bytes.count, bytes[start] == 0x20 { start += 1 }
                guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "'")
                else { continue }
                terminator = bytes[start]
                start += 1
            }
            guard let end = bytes[start...].firstIndex(of: terminator) else { continue }
            let value = bytes[start..<end]
            guard !value.isEmpty, value.count <= 10, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { continue }
            ranges.append(start..<end)
        }
        return ranges
    }

    /// `edited` with its padding before `<?xpacket end` shortened or lengthened to the size of `original`, when
    /// there is padding enough.
    static func keepingSize(_ edited: [UInt8], of original: [UInt8]) -> [UInt8] {
        let delta = edited.count - original.count
        guard delta != 0, let trailer = find(Array("<?xpacket end".utf8), in: edited, from: 0) else { return edited }
        var padStart = trailer
        while padStart > 0, [0x20, 0x0A, 0x0D, 0x09].contains(edited[padStart - 1]) { padStart -= 1 }
        var out = edited
        if delta > 0 {
            guard trailer - padStart > delta else { return edited }
            out.removeSubrange((trailer - delta)..<trailer)
        } else {
            out.insert(contentsOf: [UInt8](repeating: 0x20, count: -delta), at: trailer)
        }
        return out
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        let first = needle[0]
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
