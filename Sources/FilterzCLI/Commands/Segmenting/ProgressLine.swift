import CLIKit
import JSON

/// The one-line progress display of `record` and `package` on a terminal: frames done, encoding speed,
/// speed relative to real time, and the time left. Redrawn in place with a carriage return.
struct ProgressLine {
    var totalFrames: Int?
    var frameDurationSeconds: Double
    private var lastDrawSeconds = -1.0

    init(totalFrames: Int?, frameDurationSeconds: Double) {
        self.totalFrames = totalFrames
        self.frameDurationSeconds = frameDurationSeconds
    }

    /// The text for `frames` done after `elapsedSeconds`, e.g. `frames 120/600  31.2 fps  1.04× real time  ETA 15 s`.
    static func text(frames: Int, totalFrames: Int?, elapsedSeconds: Double, frameDurationSeconds: Double) -> String {
        let fps = elapsedSeconds > 0 ? Double(frames) / elapsedSeconds : 0
        let speed = fps * frameDurationSeconds
        var text = "frames \(frames)" + (totalFrames.map { "/\($0)" } ?? "")
        text += "  \(fixedNumber(fps, digits: 1)) fps  \(fixedNumber(speed, digits: 2))× real time"
        if let totalFrames, fps > 0 {
            let remaining = Double(max(0, totalFrames - frames)) / fps
            text += "  ETA \(Int(remaining.rounded())) s"
        }
        return text
    }

    /// Draws at most ~4 times a second on a terminal; nothing elsewhere.
    mutating func update(frames: Int, elapsedSeconds: Double, output: TextOutput) {
        guard output.isTerminal, elapsedSeconds - lastDrawSeconds >= 0.25 else { return }
        lastDrawSeconds = elapsedSeconds
        let line = Self.text(
            frames: frames, totalFrames: totalFrames, elapsedSeconds: elapsedSeconds,
            frameDurationSeconds: frameDurationSeconds)
        output.write("\r\u{1B}[K" + line)
    }

    /// Clears the line (on a terminal) before the summary is printed.
    func clear(output: TextOutput) {
        if output.isTerminal { output.write("\r\u{1B}[K") }
    }
}
