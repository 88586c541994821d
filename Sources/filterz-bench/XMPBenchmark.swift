// filterz-bench xmp: `photo apply`'s metadata path scales linearly with the XMP packet. A 16×16 PNG whose XMP
// repeats one property N times (`tiff:ImageWidth="1"`, which the upright copy rewrites to 16, a longer value) goes
// through the whole in-process pipeline (decode, PNG chunks, XMP edits, encode) at N and 8 N; a linear path takes
// about 8 times as long for the larger, a quadratic one about 64 times, so the ratio is the figure (the smaller
// input is the anchor, measured in the same run). N = 40,000 (a 0.8 MB packet) and 320,000 (6.7 MB).
// Time: median CPU time of the calling thread over 3 runs.
import CLIKit
import FilterKit
import Inspect
import JSON
import Parallel
import PhotoMetadata
import Photos

enum XMPBenchmark {
    static var command: Command {
        Command(
            CommandSpec(
                name: "xmp",
                abstract: "photo apply on a PNG whose XMP repeats a property: time at 8× the packet, as a ratio.")
        ) { _, _ in try run() }
    }

    /// A 16×16 PNG with an XMP packet of `count` `tiff:ImageWidth="1"` attributes.
    static func png(repeating count: Int) throws -> [UInt8] {
        var xmp = Array("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>".utf8)
        xmp.reserveCapacity(count * 21 + 200)
        for _ in 0..<count { xmp += Array("<r tiff:ImageWidth=\"1\"/>".utf8) }
        xmp += Array("</x:xmpmeta><?xpacket end='w'?>".utf8)
        let frame = Frame(rgbaWidth: 16, height: 16)
        return try PhotoWriter.encode(frame, metadata: CarriedMetadata(xmp: xmp), as: .png).bytes
    }

    static func applySeconds(_ png: [UInt8], _ pipeline: PhotoPipeline) throws -> Double {
        Measuring.median(
            try (0..<3).map { _ in
                let start = Measuring.threadCPUSeconds()
                let output = try pipeline.apply(to: png, writing: .png)
                precondition(output.bytes.count > png.count / 2)
                return Measuring.threadCPUSeconds() - start
            })
    }

    static func run() throws -> Int32 {
        let pipeline = PhotoPipeline(renderer: FilterRenderer(values: FilterValues(), threads: .callingThread))
        let small = try applySeconds(try png(repeating: 40_000), pipeline)
        let large = try applySeconds(try png(repeating: 320_000), pipeline)
        let ratio = large / max(small, 1e-9)
        print(
            "  N = 40,000: \(fixedNumber(small * 1000, digits: 1)) ms; N = 320,000: \(fixedNumber(large * 1000, digits: 1)) ms; ratio \(fixedNumber(ratio, digits: 1)) (linear 8, quadratic 64)"
        )
        ResultLine.print(
            "xmp",
            [("small_ms", ResultLine.number(small * 1000, places: 1)), ("ratio", ResultLine.number(ratio, places: 1))])
        return 0
    }
}
