/// Reads `Accept-Encoding` (RFC 9110 §12.5.3) for the one coding this server sends.
public enum AcceptEncoding {
    /// True when the client accepts gzip: `gzip` (or `x-gzip`, or `*` without a `gzip` entry) with a quality
    /// above 0.
    public static func allowsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var wildcard: Bool?
        for entry in header.split(separator: ",") {
            let parts = entry.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard let coding = parts.first else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if coding == "gzip" || coding == "x-gzip" { return quality > 0 }
            if coding == "*" { wildcard = quality > 0 }
        }
        return wildcard ?? false
    }
}
