// Rules about EXT-X-KEY and EXT-X-SESSION-KEY (RFC 8216bis §4.4.4.4, §4.4.6.5).

/// "If the encryption method is NONE, other attributes MUST NOT be present" (§4.4.4.4); an EXT-X-SESSION-KEY
/// "METHOD attribute MUST NOT be NONE" (§4.4.6.5); and an IV is a 128-bit value (§4.4.4.4: "a hexadecimal-
/// sequence that specifies a 128-bit unsigned integer": longer is an error, shorter a warning).
public struct KeyAttributesFitMethod: ValidationRule {
    public init() {}

    public func check(_ context: ValidationContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        switch context.playlist {
        case .media(let playlist):
            for index in playlist.segments.indices where playlist.segments[index].hasRareTags {
                for key in playlist.segments[index].keys {
                    found += problems(
                        key, tag: "EXT-X-KEY",
                        at: context.location(key.source, fallback: context.location(of: .key, segment: index)))
                }
            }
        case .multivariant(let playlist):
            for key in playlist.sessionKeys {
                let location = context.location(key.source, fallback: context.firstLocation(of: .sessionKey))
                if key.method == .none {
                    found.append(
                        .error(
                            .sessionKeyMethodNone, "EXT-X-SESSION-KEY cannot have METHOD=NONE", at: location,
                            "RFC 8216bis §4.4.6.5"))
                }
                found += problems(key, tag: "EXT-X-SESSION-KEY", at: location)
            }
        }
        return found
    }

    private func problems(_ key: Key, tag: String, at location: SourceLocation) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if key.method == .none {
            var present: [String] = []
            if key.uri != nil { present.append("URI") }
            if key.iv != nil { present.append("IV") }
            if key.keyFormat != nil { present.append("KEYFORMAT") }
            if key.keyFormatVersions != nil { present.append("KEYFORMATVERSIONS") }
            present += key.otherAttributes.map(\.name)
            if !present.isEmpty {
                found.append(
                    .error(
                        .keyNoneWithAttributes,
                        "\(tag) with METHOD=NONE cannot have other attributes (has \(present.joined(separator: ", ")))",
                        at: location, "RFC 8216bis §4.4.4.4"))
            }
        }
        // A shorter IV still names a 128-bit integer (players left-pad it with zeros), so it is only a warning;
        // a longer one does not fit.
        if let iv = key.iv, iv.bytes.count > 16 {
            found.append(
                .error(
                    .keyIVLength,
                    "IV of \(tag) must be 128 bits (32 hexadecimal digits), got \(iv.bytes.count * 8) bits",
                    at: location, "RFC 8216bis §4.4.4.4"))
        } else if let iv = key.iv, iv.bytes.count < 16 {
            found.append(
                .warning(
                    .keyIVLength,
                    "IV of \(tag) has \(iv.bytes.count * 8) bits; write all 32 hexadecimal digits of the 128-bit value",
                    at: location, "RFC 8216bis §4.4.4.4"))
        }
        return found
    }
}
