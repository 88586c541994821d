import FilterzTestSupport
import Foundation
import Testing

@testable import HLS

/// Seeded random mutations of corpus playlists: the parser must never trap, hang or lose bytes.
@Suite(.enabled(if: Corpus.isAvailable, "shared corpus not found"), .slow)
struct FuzzTests {
    static let seeds: [UInt64] = (1...8).map { UInt64($0) &* 0x1234_5678_9ABC }
    static let mutationsPerSeed = 12_500  // 8 × 12,500 = 100,000 mutated playlists

    /// Corpus files cut to 800 bytes so each parse is small (100,000 of them must run in seconds in debug).
    static let inputs: [[UInt8]] = Corpus.files.map { Array($0.bytes.prefix(800)) }

    static let insertions: [[UInt8]] = [
        "99999999999999999999999999999", "-0", "1e400", "0x", "\"", ",", "=", "{$", "{$x}", "\r", "\0", "\t",
        "\u{FEFF}", "#EXT-X-STREAM-INF:", "#EXTINF:", "#EXT-X-DEFINE:NAME=\"x\",VALUE=\"{$x}{$x}\"\n",
        "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xabcdefABCDEF0123\n", "@", "x", "\n", "한국어",
        "#EXT-X-PROGRAM-DATE-TIME:9999-99-99T99:99:99.9999999999999Z\n", "#EXT-X-BYTERANGE:18446744073709551616@-1\n",
    ].map { Array($0.utf8) }

    static func mutate(_ input: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0:  // flip a byte
                if !bytes.isEmpty { bytes[position] = UInt8.random(in: 0...255, using: &random) }
            case 1:  // truncate
                bytes.removeSubrange(position...)
            case 2:  // duplicate a line
                let start = bytes[..<position].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                let end = bytes[position...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
                let line = Array(bytes[start..<end])
                bytes.insert(contentsOf: line + line, at: start)
            case 3:  // insert a troublesome token
                bytes.insert(contentsOf: insertions.randomElement(using: &random)!, at: position)
            case 4:  // a long, deep attribute list
                let count = Int.random(in: 1...400, using: &random)
                var list = Array("#EXT-X-STREAM-INF:".utf8)
                for k in 0..<count { list += Array("A\(k)=\"\(String(repeating: "v", count: k % 7))\",".utf8) }
                bytes.insert(contentsOf: list + [0x0A], at: position)
            case 5:  // delete a range
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.removeSubrange(position..<end)
            case 6:  // swap CRLF / LF
                if bytes.count % 2 == 0 {
                    var crlf: [UInt8] = []
                    crlf.reserveCapacity(bytes.count + bytes.count / 16)
                    for b in bytes {
                        if b == 0x0A { crlf.append(0x0D) }
                        crlf.append(b)
                    }
                    bytes = crlf
                } else {
                    bytes.removeAll { $0 == 0x0D }
                }
            default:  // a line over the length limit
                bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "a"), count: 300), at: position)
            }
        }
        return bytes
    }

    @Test(arguments: seeds)
    func mutatedCorpusFilesNeverTrapAndWriteBackByteForByte(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var slowest = 0.0
        var parsed = 0
        for iteration in 0..<Self.mutationsPerSeed {
            let input = Self.mutate(Self.inputs.randomElement(using: &random)!, &random)
            let strict = Bool.random(using: &random)
            let started = Date()
            let result = HLS.parse(input, options: ParseOptions(strict: strict, maximumLineLength: 256))
            slowest = max(slowest, Date().timeIntervalSince(started))
            guard let playlist = result.playlist else {
                #expect(strict, "a lenient parse always returns a playlist")
                continue
            }
            parsed += 1
            let written = PlaylistWriter().writeBytes(playlist)
            if written != input {
                Issue.record("write-back differs for input: \(String(decoding: input, as: UTF8.self).debugDescription)")
                return
            }
            // Canonical writing of whatever was parsed must not trap either, and must read back (every 8th input,
            // to keep the test fast).
            if iteration % 8 == 0 {
                let canonical = PlaylistWriter(mode: .canonical).writeBytes(playlist)
                _ = HLS.parse(canonical)
            }
            if let bad = result.diagnostics.first(where: { $0.location.line < 1 || $0.location.column < 1 }) {
                Issue.record("diagnostic without a position: \(bad)")
                return
            }
        }
        #expect(parsed > Self.mutationsPerSeed / 3)
        // A hang guard, not a performance assertion: a small input taking seconds means a runaway loop.
        #expect(slowest < 5.0, "slowest parse took \(slowest) s")
    }
}
