/// Text made safe inside HTML and SVG: element content and attribute values quoted with `"` or `'`.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` written as character references.
    ///
    ///     HTMLText.escape("a < b & \"c\"")   // "a &lt; b &amp; &quot;c&quot;"
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
