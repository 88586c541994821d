internal import CFFmpeg

/// libav's own console logging. We report failures ourselves through `FFmpegError`, so commands
/// silence libav's chatter (encoder statistics, warnings) unless asked for it.
public enum LibavLogging {
    /// Silences libav's log (true) or restores warnings and errors (false).
    public static func setQuiet(_ quiet: Bool) { fz_av_log_set_quiet(quiet ? 1 : 0) }
}
