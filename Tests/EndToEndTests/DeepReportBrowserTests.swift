import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

/// `inspect --deep --report` opened in headless Chromium: the page is self-contained, has a chart per
/// variant whose bars and declared lines are painted inside it, and the findings are listed.
@Suite(.serialized, .needsHeadlessChromium, .browser)
struct DeepReportBrowserTests {
    struct Layout: Decodable {
        var charts: Int
        var bars: Int
        var barsInside: Bool
        var lines: Int
        var externalResources: Int
        var findings: Int
        var pageWidth: Double
    }

    static let measure = """
        const svgs = Array.from(document.querySelectorAll('svg'));
        let inside = true, bars = 0;
        for (const svg of svgs) {
            const box = svg.getBoundingClientRect();
            for (const rect of svg.querySelectorAll('rect')) {
                bars++;
                const r = rect.getBoundingClientRect();
                if (r.height <= 0 || r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) inside = false;
            }
        }
        return {charts: svgs.length, bars: bars, barsInside: inside,
                lines: document.querySelectorAll('svg line').length,
                externalResources: document.querySelectorAll('link[href], script[src], img[src]').length,
                findings: document.querySelectorAll('.finding').length,
                pageWidth: document.documentElement.scrollWidth};
        """

    @Test func theHTMLReportDrawsAChartPerVariantAndTheFindings() async throws {
        let folder = try TemporaryFolder()
        let clean = try DeepInspectFixture.record(["--duration", "2"], into: folder.url, name: "v")
        // One defect, so the page lists a finding.
        try DeepInspectFixture.edit(
            clean, "master.m3u8", "RESOLUTION=320x180,FRAME-RATE", "RESOLUTION=320x240,FRAME-RATE")
        let report = folder.url.appendingPathComponent("report.html")
        let inspected = runFilterz([
            "inspect", "--deep", "--report", report.path, clean.appendingPathComponent("master.m3u8").path,
        ])
        #expect(inspected.code == 1)
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("resolution.mismatch") && html.hasPrefix("<!DOCTYPE html>"))

        let browser = try await HeadlessChromium.start()
        do {
            try await browser.open(report.absoluteString)
            let layout = try await browser.run(Self.measure, as: Layout.self)
            #expect(layout.charts == 4, "one chart per variant and I-frame variant: \(layout)")
            #expect(layout.bars == 4 * 2 && layout.barsInside, "\(layout)")
            #expect(layout.lines >= 4 * 2, "axis and declared lines: \(layout)")
            #expect(layout.externalResources == 0)
            #expect(layout.findings == 1)
            // Element screenshots are cut at the window's edge: bring the chart to the top first.
            _ = try await browser.run(
                "document.querySelector('figure.chart').scrollIntoView(); return 0;", as: Int.self)
            let png = try await browser.screenshot(of: "figure.chart")
            let scratch = folder.url.appendingPathComponent("chart.png")
            try png.write(to: scratch)
            let raw = folder.url.appendingPathComponent("chart.rgb")
            let decoded = try ExternalTool.run(
                "ffmpeg",
                ["-nostdin", "-v", "error", "-y", "-i", scratch.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
            try #require(decoded.exitCode == 0, "\(decoded.stderr)")
            let bytes = [UInt8](try Data(contentsOf: raw))
            // The bars are blue (#5b8def): some pixels are clearly bluer than red.
            var bluePixels = 0
            for index in stride(from: 0, to: bytes.count - 2, by: 3)
            where Int(bytes[index + 2]) - Int(bytes[index]) > 80 {
                bluePixels += 1
            }
            #expect(bluePixels > 1000, "the chart shows no bars: \(bluePixels) blue pixels")
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }
}
