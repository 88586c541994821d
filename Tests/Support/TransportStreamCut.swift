import Foundation

/// Where to cut an MPEG-TS so that the stream is damaged for certain. An MPEG-TS declares no duration, so a cut
/// shows only as a last picture with missing data; a cut between two pictures (or in a PES's first packet, which
/// the demuxer drops whole) leaves a shorter stream indistinguishable from a whole one.
public enum TransportStreamCut {
    static let packetSize = 188

    /// A byte offset at or after `start`, in the middle of a TS packet that continues a PES (its
    /// payload_unit_start_indicator is 0) and is followed by another such packet of the same PID, so the PES
    /// cut there has lost data; nil when no such packet follows `start`.
    public static func offsetInsideAPicture(of bytes: Data, after start: Int) -> Int? {
        var packet = start / packetSize + 1
        while let this = header(of: bytes, packet: packet), let next = header(of: bytes, packet: packet + 1) {
            if this.pid == next.pid, this.pid != 0, !this.startsPES, !next.startsPES {
                return packet * packetSize + packetSize / 2
            }
            packet += 1
        }
        return nil
    }

    private static func header(of bytes: Data, packet: Int) -> (pid: Int, startsPES: Bool)? {
        guard packet * packetSize + packetSize <= bytes.count else { return nil }
        let base = bytes.startIndex + packet * packetSize
        guard bytes[base] == 0x47 else { return nil }
        return ((Int(bytes[base + 1]) & 0x1F) << 8 | Int(bytes[base + 2]), bytes[base + 1] & 0x40 != 0)
    }
}
