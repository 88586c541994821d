/// The two versions of HTTP/1 this server speaks (anything else is 505 or 400).
public enum HTTPVersion: String, Sendable, Hashable {
    case http10 = "HTTP/1.0"
    case http11 = "HTTP/1.1"
}
