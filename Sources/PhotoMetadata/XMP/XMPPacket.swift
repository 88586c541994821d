/// The few edits an XMP packet needs when its photo is written upright at a new size, done on the bytes (no XML
/// parser): the packet is otherwise carried byte for byte.
///
/// Properties changed where present, in attribute form (`tiff:Orientation="6"`) or element form
/// (`<tiff:Orientation>6</tiff:Orientation>`), and only when the value written is a whole number:
/// `tiff:Orientation` → 1, `tiff:ImageWidth`/`exif:PixelXDimension` → width, `tiff:ImageLength`/
/// `exif:PixelYDimension` → height. A packet's trailing padding (whitespace before `<?xpacket end`) absorbs a change
/// of length where it can, so the packet keeps its size.
public enum XMPPacket {
    /// The packet with the edits above.
    ///
    /// - Complexity: O(n) in the packet's length: each name is searched in one pass, and the packet is copied once
    ///   with every new value in place (`replacing`).
    public static func forUprightCopy(_ packet: [UInt8], width: Int, height: Int) -> [UInt8] {
        let edits: [(String, Int)] = [
            ("tiff:Orientation", 1), ("tiff:ImageWidth", width), ("exif:PixelXDimension", width),
            ("tiff:ImageLength", height), ("exif:PixelYDimension", height),
        ]
        var replacements: [Replacement] = []
        for (name, value) in edits {
            let digits = Array(String(value).utf8)
            replacements += valueRanges(of: name, in: packet).map { Replacement(range: $0, bytes: digits) }
        }
        // The names' values never overlap (a value is digits only, a name has letters).
        replacements.sort { $0.range.lowerBound < $1.range.lowerBound }
        return keepingSize(replacing(replacements, in: packet), of: packet)
    }

    /// New bytes for a range of the packet.
    struct Replacement {
        var range: Range<Int>
        var bytes: [UInt8]
    }

    /// `bytes` with each range of `replacements` (in ascending order, not overlapping) replaced: one copy, the
    /// bytes between the ranges appended as they are.
    static func replacing(_ replacements: [Replacement], in bytes: [UInt8]) -> [UInt8] {
        guard !replacements.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + replacements.reduce(0) { $0 + $1.bytes.count - $1.range.count })
        var copied = 0
        for replacement in replacements {
            out += bytes[copied..<replacement.range.lowerBound]
            out += replacement.bytes
            copied = replacement.range.upperBound
        }
        out += bytes[copied...]
        return out
    }

    /// The value of property `name` read as a whole number, where present (for tests and reports).
    public static func number(of name: String, in packet: [UInt8]) -> Int? {
        valueRanges(of: name, in: packet).first.flatMap { Int(String(decoding: packet[$0], as: UTF8.self)) }
    }

    /// The longest value edited: a 32-bit number has at most 10 digits.
    static let maximumDigits = 10

    /// Where the whole-number values of `name` are: after `name="` / `name='` up to the quote, or after `<name>`
    /// up to `<` (at most `maximumDigits` digits, so the terminator is looked for only that far).
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
            guard let end = bytes[start..<min(bytes.count, start + maximumDigits + 1)].firstIndex(of: terminator)
            else { continue }
            let value = bytes[start..<end]
            guard !value.isEmpty, value.count <= maximumDigits, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                continue
            }
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
        while padStart > 0,
            edited[padStart - 1] == 0x20 || edited[padStart - 1] == 0x0A || edited[padStart - 1] == 0x0D
                || edited[padStart - 1] == 0x09
        {
            padStart -= 1
        }
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
