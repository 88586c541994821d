import CLIKit

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
        text += "  \(format(fps, 1)) fps  \(format(speed, 2))× real time"
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

    static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let fraction = text[text.index(after: dot)...]
            if fraction.count < decimals { text += String(repeating: "0", count: decimals - fraction.count) }
        } else if decimals > 0 {
            text += "." + String(repeating: "0", count: decimals)
        }
        return text
    }
}
