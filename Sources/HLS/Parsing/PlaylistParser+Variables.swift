import Notation

/// Variable substitution (RFC 8216bis §4.3): `{$name}` in URI lines, quoted strings and hexadecimal sequences
/// is replaced by the value of the EXT-X-DEFINE named `name`. An undefined name is an error (the reference is
/// then left as written).
extension PlaylistParser {
    @inline(__always) func containsVariableReference(_ range: Range<Int>) -> Bool {
        buffer.containsVariableReference(range)
    }

    /// The bytes of `range` as a String, with variable references substituted.
    mutating func substitutedString(_ range: Range<Int>, at location: SourceLocation) -> String {
        guard containsVariableReference(range) else { return string(range) }
        return String(decoding: substitute(Array(buffer[range]), at: location, offset: range.lowerBound), as: UTF8.self)
    }

    /// Replaces each `{$name}` in `text`. `offset` is where `text` starts in the input (for columns).
    mutating func substitute(_ text: [UInt8], at location: SourceLocation, offset: Int?) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var i = 0
        let limit = options.maximumSubstitutedLength
        var truncated = false
        while i < text.count {
            if text[i] == UInt8(ascii: "{"), i + 1 < text.count, text[i + 1] == UInt8(ascii: "$") {
                var j = i + 2
                while j < text.count, PlaylistParser.isVariableNameByte(text[j]) { j += 1 }
                if j < text.count, text[j] == UInt8(ascii: "}"), j > i + 2 {
                    let name = String(decoding: text[i + 2..<j], as: UTF8.self)
                    if let value = variables[name],
                        substitutedBytes + value.utf8.count <= options.maximumSubstitutedBytes
                    {
                        output.append(contentsOf: value.utf8)
                        substitutedBytes += value.utf8.count
                    } else if variables[name] != nil {
                        if !substitutionExhausted {
                            substitutionExhausted = true
                            report(
                                .error, .invalidDefine,
                                "variable substitution would produce more than \(options.maximumSubstitutedBytes) bytes; later references are left as written",
                                at: offset.map { self.location($0 + i) } ?? location,
                                spec: SpecReference.variableSubstitution)
                        }
                        output.append(contentsOf: text[i...j])
                    } else {
                        let at = offset.map { self.location($0 + i) } ?? location
                        report(
                            .error, .undefinedVariable, "variable {$\(name)} is not defined by an EXT-X-DEFINE",
                            at: at, spec: SpecReference.variableSubstitution)
                        output.append(contentsOf: text[i...j])
                    }
                    i = j + 1
                    if output.count > limit {
                        truncated = true
                        break
                    }
                    continue
                }
            }
            output.append(text[i])
            i += 1
        }
        if truncated {
            output.removeSubrange(limit...)
            report(
                .error, .invalidDefine, "a substituted value is longer than \(limit) bytes; cut", at: location,
                spec: SpecReference.variableSubstitution)
        }
        return output
    }

    static func isVariableNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: "_")
    }

    static func isValidVariableName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isVariableNameByte)
    }

    /// The query parameters of `options.playlistURI`, percent-decoded (first occurrence wins).
    mutating func queryParameter(_ name: String) -> String? {
        if queryParameters == nil {
            var parameters: [String: String] = [:]
            if let uri = options.playlistURI, let question = uri.firstIndex(of: "?") {
                var query = uri[uri.index(after: question)...]
                if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
                for pair in query.split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let key = PercentEncoding.formDecoded(parts[0].utf8, malformed: .keep) ?? ""
                    let value =
                        parts.count > 1 ? PercentEncoding.formDecoded(parts[1].utf8, malformed: .keep) ?? "" : ""
                    if parameters[key] == nil { parameters[key] = value }
                }
            }
            queryParameters = parameters
        }
        return queryParameters?[name]
    }
}
