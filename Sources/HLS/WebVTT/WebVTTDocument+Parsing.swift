extension WebVTTDocument {
    /// The outcome of parsing a WebVTT file: the document (nil only when the `WEBVTT` signature is missing)
    /// and every problem found, in line order.
    public struct ParseOutcome: Sendable {
        public var document: WebVTTDocument?
        public var diagnostics: [Diagnostic]
    }

    /// Parses a WebVTT file: the `WEBVTT` signature line, header lines (including HLS's `X-TIMESTAMP-MAP`),
    /// then blocks separated by blank lines — cues (optional identifier, `start --> end [settings]`, text
    /// lines), and `NOTE`, `STYLE` and `REGION` blocks, which are skipped.
    ///
    /// Accepts LF, CRLF and CR line ends and a UTF-8 BOM. A malformed cue is reported and skipped; parsing
    /// goes on with the next block. Not handled: cue text markup (kept verbatim), region definitions, CSS.
    public static func parse(_ bytes: [UInt8]) -> ParseOutcome {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = webVTTLines(text)
        var diagnostics: [Diagnostic] = []
        guard let first = lines.first, first == "WEBVTT" || first.hasPrefix("WEBVTT ") || first.hasPrefix("WEBVTT\t")
        else {
            diagnostics.append(.webVTT(.signatureMissing, "a WebVTT file must start with 'WEBVTT'", line: 1))
            return ParseOutcome(document: nil, diagnostics: diagnostics)
        }
        var document = WebVTTDocument(title: String(first.dropFirst(6).drop { $0 == " " || $0 == "\t" }))
        var index = 1
        // Header: lines up to the first blank line.
        while index < lines.count, !lines[index].isEmpty {
            let line = lines[index]
            if line.hasPrefix("X-TIMESTAMP-MAP=") {
                if let map = WebVTTTimestampMap(headerValue: line.dropFirst("X-TIMESTAMP-MAP=".count)) {
                    document.timestampMap = map
                } else {
                    diagnostics.append(
                        .webVTT(
                            .timestampMapMalformed,
                            "X-TIMESTAMP-MAP must be 'MPEGTS:<90 kHz ticks>,LOCAL:<cue time>', got '\(line)'",
                            line: index + 1))
                }
            } else if line.contains("-->") {
                diagnostics.append(
                    .webVTT(
                        .headerBlankLineMissing, "a blank line must separate the header from the first cue",
                        line: index + 1))
                break
            }
            index += 1
        }
        while index < lines.count {
            while index < lines.count, lines[index].isEmpty { index += 1 }
            guard index < lines.count else { break }
            let blockStart = index
            var blockEnd = index
            while blockEnd < lines.count, !lines[blockEnd].isEmpty { blockEnd += 1 }
            defer { index = blockEnd }
            let block = lines[blockStart..<blockEnd]
            let head = block[blockStart]
            if head == "NOTE" || head.hasPrefix("NOTE ") || head.hasPrefix("NOTE\t") || head == "STYLE"
                || head == "REGION"
            {
                continue
            }
            let timingIndex = head.contains("-->") ? blockStart : blockStart + 1
            guard timingIndex < blockEnd, block[timingIndex].contains("-->") else {
                diagnostics.append(
                    .webVTT(
                        .cueTimingMissing, "cue block has no 'start --> end' timing line", line: blockStart + 1))
                continue
            }
            switch WebVTTCue.parseTiming(block[timingIndex]) {
            case .failure(let problem):
                diagnostics.append(
                    .webVTT(problem.code, problem.message, line: timingIndex + 1, column: problem.column))
            case .success(var cue):
                cue.identifier = timingIndex == blockStart ? nil : head
                cue.text = block[(timingIndex + 1)...].joined(separator: "\n")
                if cue.endMilliseconds < cue.startMilliseconds {
                    diagnostics.append(
                        .webVTT(
                            .cueEndBeforeStart, "cue ends before it starts", line: timingIndex + 1))
                    continue
                }
                document.cues.append(cue)
            }
        }
        return ParseOutcome(document: document, diagnostics: diagnostics)
    }
}

/// The lines of a WebVTT text, split at CRLF, LF or CR (WebVTT allows all three).
private func webVTTLines(_ text: String) -> [String] {
    var lines: [String] = []
    var current = ""
    var previousWasCR = false
    for character in text.unicodeScalars {
        switch character {
        case "\r":
            lines.append(current)
            current = ""
            previousWasCR = true
            continue
        case "\n":
            if !previousWasCR {
                lines.append(current)
                current = ""
            }
        default:
            current.unicodeScalars.append(character)
        }
        previousWasCR = false
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}

extension WebVTTTimestampMap {
    /// Parses `MPEGTS:<integer>,LOCAL:<timestamp>` (either order).
    init?(headerValue: Substring) {
        var mpegTimestamp: Int64?
        var local: Int?
        for pair in headerValue.split(separator: ",") {
            if pair.hasPrefix("MPEGTS:") {
                mpegTimestamp = Int64(pair.dropFirst(7))
            } else if pair.hasPrefix("LOCAL:") {
                local = WebVTTTimestamp.milliseconds(pair.dropFirst(6))
            } else {
                return nil
            }
        }
        guard let mpegTimestamp, mpegTimestamp >= 0, let local else { return nil }
        self.init(mpegTimestamp: mpegTimestamp, localMilliseconds: local)
    }
}

/// WebVTT timestamps: `HH:MM:SS.mmm` (hours two or more digits) or `MM:SS.mmm`.
public enum WebVTTTimestamp {
    /// The timestamp in milliseconds, or nil when `text` is not exactly a WebVTT timestamp.
    static func milliseconds(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var hours = 0
        if parts.count == 3 {
            guard parts[0].count >= 2, parts[0].count <= 9, let value = digits(parts[0]) else { return nil }
            hours = value
        }
        let minutesText = parts[parts.count - 2]
        let secondsParts = parts[parts.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        guard minutesText.count == 2, let minutes = digits(minutesText), minutes < 60,
            secondsParts.count == 2, secondsParts[0].count == 2, let seconds = digits(secondsParts[0]),
            seconds < 60, secondsParts[1].count == 3, let millis = digits(secondsParts[1])
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// `HH:MM:SS.mmm`, always with hours (what the writer and the packager's caption segments emit), for a
    /// non-negative count of milliseconds.
    public static func format(_ milliseconds: Int) -> String {
        let millis = milliseconds % 1000
        let totalSeconds = milliseconds / 1000
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(totalSeconds / 3600, 2)):\(pad(totalSeconds / 60 % 60, 2)):\(pad(totalSeconds % 60, 2))."
            + pad(millis, 3)
    }
}

extension WebVTTCue {
    struct TimingProblem: Error {
        var code: WebVTTRule
        var message: String
        var column: Int
    }

    /// Parses `start --> end [settings]` into a cue without identifier or text.
    static func parseTiming(_ line: String) -> Result<WebVTTCue, TimingProblem> {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, fields[1] == "-->" else {
            return .failure(
                TimingProblem(
                    code: .cueTimingMalformed, message: "cue timing must be 'start --> end', got '\(line)'", column: 1))
        }
        guard let start = WebVTTTimestamp.milliseconds(fields[0]) else {
            return .failure(
                TimingProblem(
                    code: .cueTimestampMalformed,
                    message: "cue start '\(fields[0])' is not HH:MM:SS.mmm or MM:SS.mmm", column: 1))
        }
        guard let end = WebVTTTimestamp.milliseconds(fields[2]) else {
            let column = line.utf8.distance(from: line.startIndex, to: fields[2].startIndex) + 1
            return .failure(
                TimingProblem(
                    code: .cueTimestampMalformed,
                    message: "cue end '\(fields[2])' is not HH:MM:SS.mmm or MM:SS.mmm", column: column))
        }
        var settings: [Setting] = []
        for field in fields.dropFirst(3) {
            guard let colon = field.firstIndex(of: ":"), colon != field.startIndex,
                field.index(after: colon) != field.endIndex
            else {
                return .failure(
                    TimingProblem(
                        code: .cueSettingMalformed, message: "cue setting '\(field)' is not name:value", column: 1))
            }
            settings.append(Setting(name: String(field[..<colon]), value: String(field[field.index(after: colon)...])))
        }
        return .success(WebVTTCue(startMilliseconds: start, endMilliseconds: end, settings: settings, text: ""))
    }
}
