import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import HLS
@testable import Inspect

/// `inspect` (validator, facts, text report) on damaged input: seeded mutations of every corpus file must
/// produce a report and an exit code, never a trap. (The parser's own fuzz test lives in HLSTests.)
@Suite(.enabled(if: SharedData.folder("corpus/playlists") != nil, "needs ../shared/corpus"))
struct InspectRobustnessTests {
    static let hostileNumbers = ["-1", "9223372036854775807", "18446744073709551616", "1e308", "0", "-0.0", "NaN"]

    static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        guard !bytes.isEmpty else { return bytes }
        switch Int.random(in: 0..<5, using: &random) {
        case 0:  // flip a byte
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        case 1:  // truncate
            bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random))
        case 2:  // duplicate a line
            let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
            let line = lines[Int.random(in: 0..<lines.count, using: &random)]
            bytes += [10] + line
        default:  // replace every run of digits after one position with a hostile number
            let start = Int.random(in: 0..<bytes.count, using: &random)
            guard let digit = bytes[start...].firstIndex(where: { (48...57).contains($0) }) else { break }
            var end = digit
            while end < bytes.count, (48...57).contains(bytes[end]) || bytes[end] == 46 { end += 1 }
            bytes.replaceSubrange(digit..<end, with: Array(hostileNumbers.randomElement(using: &random)!.utf8))
        }
        return bytes
    }

    @Test func mutatedCorpusFilesAlwaysGetAReport() throws {
        let folder = try #require(SharedData.folder("corpus/playlists"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".m3u8") }
            .sorted()
        var random = SeededGenerator(seed: 2026)
        var runs = 0
        for name in names {
            let original = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            for round in 0..<20 {
                var bytes = original
                for _ in 0...(round % 3) { bytes = Self.mutate(bytes, &random) }
                for arguments in [["inspect", "-"], ["inspect", "--json", "-"]] {
                    let run = InspectCLI.run(arguments, stdin: bytes)
                    #expect(run.code == 0 || run.code == 1, "\(name) round \(round): exit \(run.code) \(run.err)")
                    #expect(!run.out.isEmpty)
                    runs += 1
                }
            }
        }
        #expect(runs == names.count * 40)
    }

    @Test func hugeNumbersDoNotOverflowTheRules() {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:9
            #EXT-X-TARGETDURATION:9223372036854775807
            #EXT-X-MEDIA-SEQUENCE:9223372036854775807
            #EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807
            #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=1,HOLD-BACK=1
            #EXTINF:1e300,
            #EXT-X-BYTERANGE:9223372036854775807@0
            a.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:1,
            #EXT-X-BYTERANGE:9223372036854775807
            a.ts

            """
        let result = parseAndValidate(Array(text.utf8))
        let media = result.mediaPlaylist
        #expect(media?.statistics.totalBytes == Int.max)
        if let media {
            let reference = ReferencedPlaylist(reference: .variant(Variant(uri: "a", bandwidth: 1)), playlist: media)
            _ = VariantAlignment.check([reference, reference])
        }
        let run = InspectCLI.run(["inspect", "-"], stdin: Array(text.utf8))
        #expect(run.code == 1)
        #expect(run.out.contains("[server-control.can-skip-until-too-small]"))
    }

    @Test func displayFormatsReadAsDocumented() {
        #expect(DisplayFormat.bytes(812) == "812B")
        #expect(DisplayFormat.bytes(12_345) == "12.3kB")
        #expect(DisplayFormat.bytes(2_200_000) == "2.2MB")
        #expect(DisplayFormat.bytes(1_500_000_000) == "1.5GB")
        #expect(DisplayFormat.bitrate(65_000) == "65 kb/s")
        #expect(DisplayFormat.bitrate(2_628_000) == "2.63 Mb/s")
        #expect(DisplayFormat.frameRate(29.97) == "29.97")
        #expect(DisplayFormat.frameRate(30) == "30")
        #expect(DisplayFormat.seconds(3.0035) == "3.004 s")
        #expect(TextTable.displayWidth("한국어") == 6)
    }
}
