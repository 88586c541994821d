import Foundation

/// GStreamer 1.22 playing a stream headless: `gst-launch-1.0 playbin3` (its HLS demuxer is `hlsdemux2`, its
/// decoders libav's) into two `fakesink`s without clock sync, so it runs as fast as it decodes. Its base sink's
/// debug log names every decoded buffer a sink receives (`…chain_unlocked:<vsink> got times start: H:MM:SS.N…`),
/// which is how the frames are counted and timed: unlike the sinks' `last-message` notifications, which are
/// dropped when buffers come fast, the log has a line for each.
public enum GStreamerPlayer {
    /// Why GStreamer cannot run here (nil when `gst-launch-1.0` and `hlsdemux2` are installed).
    public static var unavailableReason: String? {
        guard ExternalTool.isInstalled("gst-launch-1.0"), ExternalTool.isInstalled("gst-inspect-1.0") else {
            return "needs gst-launch-1.0 (gstreamer1.0-tools, make deps)"
        }
        let demuxer = try? ExternalTool.run("gst-inspect-1.0", ["hlsdemux2"], timeoutSeconds: 30)
        guard demuxer?.exitCode == 0 else { return "needs GStreamer's hlsdemux2 (gstreamer1.0-plugins-good)" }
        return nil
    }

    /// What one playback did.
    public struct Report: Sendable, CustomStringConvertible {
        public var exitCode: Int32
        /// Presentation time (seconds) of every decoded video frame, in the order the sink got them.
        public var videoFrames: [Double]
        /// Presentation time (seconds) of every decoded audio buffer.
        public var audioBuffers: [Double]
        /// The `ERROR:` lines and what follows each (GStreamer's reason), and a crash notice if any.
        public var errors: [String]
        /// True when the pipeline reached the end of the stream (`Got EOS`).
        public var reachedEnd: Bool

        public var description: String {
            "exit \(exitCode), \(videoFrames.count) video frames from \(videoFrames.min() ?? -1) s to "
                + "\(videoFrames.max() ?? -1) s, \(audioBuffers.count) audio buffers from \(audioBuffers.min() ?? -1) s"
                + ", end \(reachedEnd), errors: \(errors.joined(separator: " | "))"
        }
    }

    /// Plays `url` to its end (or until `timeoutSeconds`, then the process is killed).
    public static func play(_ url: String, timeoutSeconds: Double = 90) throws -> Report {
        let run = try ExternalTool.run(
            "env",
            [
                "GST_DEBUG=basesink:5", "GST_DEBUG_NO_COLOR=1", "gst-launch-1.0", "playbin3", "uri=\(url)",
                "video-sink=fakesink name=vsink sync=false", "audio-sink=fakesink name=asink sync=false",
            ], timeoutSeconds: timeoutSeconds)
        return report(exitCode: run.exitCode, output: run.stdout + run.stderr)
    }

    /// Reads gst-launch's output.
    static func report(exitCode: Int32, output: String) -> Report {
        var video: [Double] = [], audio: [Double] = [], errors: [String] = []
        let lines = output.split(separator: "\n")
        for (index, line) in lines.enumerated() {
            if line.contains("chain_unlocked:<"), let pts = presentationTime(line) {
                if line.contains("<vsink>") { video.append(pts) } else if line.contains("<asink>") { audio.append(pts) }
            } else if line.hasPrefix("ERROR:") || line.contains("Caught SIG") {
                errors.append(lines[index...].prefix(3).joined(separator: " "))
            }
        }
        return Report(
            exitCode: exitCode, videoFrames: video, audioBuffers: audio, errors: errors,
            reachedEnd: output.contains("Got EOS from element"))
    }

    /// `got times start: 0:00:10.066666666, …` as seconds.
    static func presentationTime(_ line: Substring) -> Double? {
        guard let range = line.range(of: "got times start: ") else { return nil }
        let field = line[range.upperBound...].prefix { $0 != "," }
        let parts = field.split(separator: ":")
        guard parts.count == 3, let hours = Double(parts[0]), let minutes = Double(parts[1]),
            let seconds = Double(parts[2])
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }
}
