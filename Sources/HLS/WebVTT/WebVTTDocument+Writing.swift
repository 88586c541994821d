extension WebVTTDocument {
    /// The document as WebVTT text: `WEBVTT`, the `X-TIMESTAMP-MAP` header when set, a blank line, then each
    /// cue (identifier, `HH:MM:SS.mmm --> HH:MM:SS.mmm settings`, text) followed by a blank line.
    ///
    ///     WebVTTDocument(timestampMap: .init(mpegTimestamp: 900_000, localMilliseconds: 0),
    ///                    cues: [WebVTTCue(startMilliseconds: 0, endMilliseconds: 2_000, text: "안녕")]).text
    ///     // "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:00.000 --> 00:00:02.000\n안녕\n\n"
    public var text: String {
        var out = title.isEmpty ? "WEBVTT\n" : "WEBVTT \(title)\n"
        if let timestampMap {
            out +=
                "X-TIMESTAMP-MAP=MPEGTS:\(timestampMap.mpegTimestamp),LOCAL:"
                + WebVTTTimestamp.format(timestampMap.localMilliseconds) + "\n"
        }
        out += "\n"
        for cue in cues {
            if let identifier = cue.identifier { out += identifier + "\n" }
            out += WebVTTTimestamp.format(cue.startMilliseconds) + " --> " + WebVTTTimestamp.format(cue.endMilliseconds)
            for setting in cue.settings { out += " \(setting.name):\(setting.value)" }
            out += "\n"
            if !cue.text.isEmpty { out += cue.text + "\n" }
            out += "\n"
        }
        return out
    }
}
