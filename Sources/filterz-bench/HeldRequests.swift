import CLIKit
import Foundation
import HLS

#if canImport(Glibc)
    import Glibc
#endif

/// Many clients holding the same blocking playlist reload (`_HLS_msn`, `_HLS_part` of a part not yet written),
/// each on its own connection to 127.0.0.1: when each answer's first byte arrived, milliseconds since 1970.
enum HeldRequests {
    /// The part to wait for: part 0 of the segment after the one in progress in `playlistFile`.
    static func nextSegmentStart(of playlistFile: URL) -> (msn: Int, part: Int)? {
        guard let text = try? String(contentsOf: playlistFile, encoding: .utf8),
            let media = HLS.parse(text).playlist?.media
        else { return nil }
        let last = (media.mediaSequence ?? 0) + media.segments.count  // the segment in progress
        return (last + 1, 0)
    }

    /// Opens `count` connections, sends `GET path` on each, waits (up to `timeoutSeconds`) for every answer.
    static func firstByteTimes(port: UInt16, path: String, count: Int, timeoutSeconds: Double) -> [Double] {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { break }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0, send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
                close(fd)
                continue
            }
            sockets.append(fd)
        }
        var answered = [Double?](repeating: nil, count: sockets.count)
        var pending = sockets.count
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while pending > 0 && Date() < deadline {
            var polls = sockets.enumerated().filter { answered[$0.offset] == nil }.map {
                pollfd(fd: $0.element, events: Int16(POLLIN), revents: 0)
            }
            let ready = poll(&polls, nfds_t(polls.count), 100)
            guard ready > 0 else { continue }
            let now = Date().timeIntervalSince1970 * 1000
            for poll in polls where poll.revents != 0 {
                guard let index = sockets.firstIndex(of: poll.fd) else { continue }
                _ = recv(poll.fd, &buffer, buffer.count, 0)
                answered[index] = now
                pending -= 1
            }
        }
        return answered.compactMap { $0 }
    }
}
