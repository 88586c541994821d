import Notation

/// Reading playlist bytes: digits, decimals, dates and comparisons over an input buffer. These live on the
/// buffer (16 bytes, cheap to pass) rather than on the parser, whose state is large.
extension UnsafeBufferPointer where Element == UInt8 {
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[range]), as: UTF8.self)
    }

    func equalBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound
        var j = b.lowerBound
        while i < a.upperBound {
            if self[i] != self[j] { return false }
            i += 1
            j += 1
        }
        return true
    }

    func plainDigits(_ range: Range<Int>) -> Int? {
        if range.isEmpty || range.count > 18 { return range.count > 18 ? digitsOverflowing(range) : nil }
        var value = 0
        for i in range {
            let d = self[i] &- 0x30
            if d > 9 { return nil }
            value = value &* 10 &+ Int(d)
        }
        return value
    }

    func digitsOverflowing(_ range: Range<Int>) -> Int? {
        var value = 0
        for i in range {
            let d = self[i] &- 0x30
            if d > 9 { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(d))
            if o1 || o2 { return nil }
            value = s
        }
        return value
    }

    func plainDecimal(_ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        let end = range.upperBound
        guard i < end else { return nil }
        guard end - i <= 19 else { return longDecimal(range) }
        // At most 19 characters, so at most 19 digits: the mantissa fits a UInt64.
        var mantissa: UInt64 = 0
        var sawDigit = false
        while i < end {
            let d = self[i] &- 0x30
            if d > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            sawDigit = true
            i &+= 1
        }
        var fraction = 0
        if i < end {
            guard self[i] == UInt8(ascii: ".") else { return nil }
            i &+= 1
            while i < end {
                let d = self[i] &- 0x30
                guard d <= 9 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(d)
                fraction &+= 1
                sawDigit = true
                i &+= 1
            }
        }
        guard sawDigit else { return nil }
        if mantissa < (1 << 53) {
            // Both operands exact, so the one division rounds correctly (as strtod would).
            return Double(mantissa) / PlaylistParser.powersOfTen[fraction]
        }
        return slowDecimal(range)
    }

    /// digits[.digits] longer than 19 characters: checked here, converted by the standard library.
    func longDecimal(_ range: Range<Int>) -> Double? {
        var sawDot = false
        var sawDigit = false
        for i in range {
            let b = self[i]
            if b &- 0x30 <= 9 {
                sawDigit = true
            } else if b == UInt8(ascii: ".") && !sawDot {
                sawDot = true
            } else {
                return nil
            }
        }
        return sawDigit ? slowDecimal(range) : nil
    }

    /// The best-effort reading of a number whose text the grammar refuses (see ``LenientValue``): spaces and
    /// tabs around it are skipped, then an optional sign and the longest `digits[.digits]` prefix are read, as
    /// JavaScript's `parseFloat` (hls.js) does without exponents. Nil when no digit comes first.
    func lenientDecimal(_ range: Range<Int>) -> Double? {
        var start = range.lowerBound
        while start < range.upperBound && (self[start] == 0x20 || self[start] == 0x09) { start &+= 1 }
        var negative = false
        if start < range.upperBound && (self[start] == UInt8(ascii: "-") || self[start] == UInt8(ascii: "+")) {
            negative = self[start] == UInt8(ascii: "-")
            start &+= 1
        }
        var end = start
        while end < range.upperBound && self[end] &- 0x30 <= 9 { end &+= 1 }
        if end < range.upperBound && self[end] == UInt8(ascii: ".") {
            var fractionEnd = end &+ 1
            while fractionEnd < range.upperBound && self[fractionEnd] &- 0x30 <= 9 { fractionEnd &+= 1 }
            if fractionEnd > end &+ 1 { end = fractionEnd }
        }
        guard end > start, let magnitude = plainDecimal(start..<end) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// `length[@offset]`, each a decimal-integer that fits in `Int`; nil when the text is not of that shape.
    func byteRange(_ range: Range<Int>) -> ByteRange? {
        var i = range.lowerBound
        let end = range.upperBound
        guard let length = integerPrefix(&i, end) else { return nil }
        if i == end { return ByteRange(length: length) }
        guard self[i] == UInt8(ascii: "@") else { return nil }
        i &+= 1
        guard let offset = integerPrefix(&i, end), i == end else { return nil }
        return ByteRange(length: length, offset: offset)
    }

    /// The decimal digits starting at `i` (at least one) as an `Int`, advancing `i` past them; nil when there
    /// are none or the value does not fit in `Int`.
    @inline(__always)
    private func integerPrefix(_ i: inout Int, _ end: Int) -> Int? {
        let start = i
        var value = 0
        // 18 digits cannot overflow an Int; only longer runs need checked arithmetic.
        let uncheckedEnd = Swift.min(end, start &+ 18)
        while i < uncheckedEnd {
            let d = self[i] &- 0x30
            if d > 9 { return i > start ? value : nil }
            value = value &* 10 &+ Int(d)
            i &+= 1
        }
        while i < end {
            let d = self[i] &- 0x30
            if d > 9 { break }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(d))
            if overflow1 || overflow2 { return nil }
            value = sum
            i &+= 1
        }
        return i > start ? value : nil
    }

    func slowDecimal(_ range: Range<Int>) -> Double? {
        Double(text(range))
    }

    @inline(__always)
    func digits(_ i: Int, _ count: Int) -> Int {
        var value = 0
        for k in i..<i + count {
            let d = self[k] &- 0x30
            if d > 9 { return -1 }
            value = value &* 10 &+ Int(d)
        }
        return value
    }

    func parseDateTime(_ range: Range<Int>) -> DateTime? {
        let s = range.lowerBound
        let end = range.upperBound
        // YYYY-MM-DDThh:mm:ss is 19 bytes at fixed positions.
        guard end - s >= 19, self[s + 4] == UInt8(ascii: "-"), self[s + 7] == UInt8(ascii: "-"),
            self[s + 10] == UInt8(ascii: "T") || self[s + 10] == UInt8(ascii: "t"),
            self[s + 13] == UInt8(ascii: ":"), self[s + 16] == UInt8(ascii: ":")
        else { return nil }
        let year = digits(s, 4)
        let month = digits(s + 5, 2)
        let day = digits(s + 8, 2)
        let hour = digits(s + 11, 2)
        let minute = digits(s + 14, 2)
        let second = digits(s + 17, 2)
        guard year >= 0, (1...12).contains(month), (1...31).contains(day), (0..<24).contains(hour),
            (0..<60).contains(minute), (0...60).contains(second)
        else { return nil }
        var i = s + 19
        var nanosecond = 0
        var fractionDigits = 0
        if i < end && (self[i] == UInt8(ascii: ".") || self[i] == UInt8(ascii: ",")) {
            i += 1
            while i < end, self[i] &- 0x30 <= 9 {
                if fractionDigits < 9 { nanosecond = nanosecond &* 10 &+ Int(self[i] &- 0x30) }
                fractionDigits += 1
                i += 1
            }
            if fractionDigits == 0 { return nil }
            var scale = fractionDigits
            while scale < 9 {
                nanosecond &*= 10
                scale += 1
            }
            fractionDigits = Swift.min(fractionDigits, 12)
        }
        var offset = 0
        if i < end {
            let sign = self[i]
            if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                i += 1
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                i += 1
                guard i + 2 <= end else { return nil }
                let hours = digits(i, 2)
                guard hours >= 0 else { return nil }
                i += 2
                var minutes = 0
                if i < end {
                    if self[i] == UInt8(ascii: ":") { i += 1 }
                    guard i + 2 <= end else { return nil }
                    minutes = digits(i, 2)
                    guard minutes >= 0 else { return nil }
                    i += 2
                }
                offset = (hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
        }
        guard i == end else { return nil }
        return DateTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond,
            fractionDigits: fractionDigits, utcOffsetMinutes: offset)
    }

    func containsVariableReference(_ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        let last = range.upperBound - 1
        while i < last {
            if self[i] == UInt8(ascii: "{") && self[i + 1] == UInt8(ascii: "$") { return true }
            i += 1
        }
        return false
    }

    func equalsASCII(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let pointer = text.utf8Start
        for (k, i) in range.enumerated() where self[i] != pointer[k] { return false }
        return true
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The number of LF bytes in `0..<end`, eight bytes at a time.
    func lineFeedCount(before end: Int) -> Int {
        guard let base = baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var count = 0
        var i = 0
        while i &+ 8 <= end {
            // x has a zero byte exactly where the word has an LF; y has the top bit of exactly those bytes set.
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let y = ~(((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x | 0x7F7F_7F7F_7F7F_7F7F)
            count &+= y.nonzeroBitCount
            i &+= 8
        }
        while i < end {
            if self[i] == 0x0A { count &+= 1 }
            i &+= 1
        }
        return count
    }
}
