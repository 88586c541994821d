/// Why the server could not start or run.
public enum ServerError: Error, Equatable, CustomStringConvertible {
    /// The folder to serve cannot be opened.
    case folderUnreadable(path: String, reason: String)
    /// The host is not an IPv4 or IPv6 address.
    case badHost(String)
    /// The port cannot be listened on (in use, no permission, …).
    case cannotListen(host: String, port: UInt16, reason: String)
    /// The token secret is empty.
    case emptySecret
    /// The API key is empty.
    case emptyAPIKey
    /// `--nginx-config` cannot name this folder: nginx expands `$name` in `root` and has no escape for `$`.
    case nginxUnsafePath(String)
    /// More connections were asked for than the descriptor limit leaves room for (`ConnectionCapacity`).
    case tooManyConnections(requested: Int, allowed: Int, descriptorLimit: Int)

    public var description: String {
        switch self {
        case .folderUnreadable(let path, let reason): "cannot serve '\(path)': \(reason)"
        case .badHost(let host): "'\(host)' is not an IPv4 or IPv6 address"
        case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .emptySecret: "the token secret is empty"
        case .emptyAPIKey: "the API key is empty"
        case .nginxUnsafePath(let path):
            "nginx would read the '$' in '\(path)' as a variable: serve a folder whose path has no '$'"
        case .tooManyConnections(let requested, let allowed, let descriptorLimit):
            "\(requested) connections need more descriptors than the limit of \(descriptorLimit) allows (at most "
                + "\(allowed) connections): raise the limit (ulimit -n) or ask for fewer"
        }
    }
}
