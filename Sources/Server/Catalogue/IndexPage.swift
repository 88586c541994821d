import HLS
import Markup

/// The read-only HTML page at `/`: a page of videos (newest first, `pageSize` at a time, `/?next=CURSOR` for the
/// next one) with each one's poster, filter, duration, renditions and a `<video>` element playing its master
/// playlist.
///
/// The structure other tools (and browser tests) rely on, kept stable:
///
///     <article id="ID">
///       <h2>TITLE</h2>
///       <video id="video-ID" data-master="/v1/videos/ID/master.m3u8" controls preload="none" [poster="…"]>
///         <source src="/v1/videos/ID/master.m3u8" type="application/vnd.apple.mpegurl">
///         <a href="…master.m3u8">…</a>
///       </video>
///       <dl>…facts…</dl>
///     </article>
///     …
///     [<p class="next-page"><a href="/?next=CURSOR">Older videos</a></p>]
///     <script>IndexPagePlayer.script</script>
///
/// (ID percent-encoded in URLs, HTML-escaped in attributes.) Where the browser's Media Source can take the
/// stream, `IndexPagePlayer` replaces the `<source>` with one and sets `data-player="mse"` on the element;
/// otherwise native HLS plays the `<source>` (`data-player="native"`); with neither it sets
/// `data-player="none"` and adds `<p class="player-note">` after the video. Until `data-player` is set the
/// page has not decided, so a script that starts playback should wait for it.
enum IndexPage {
    /// Videos on one page: the page stays small whatever the catalogue holds.
    static let pageSize = 24

    /// `token` gives each video's token when URLs are signed (nil: unsigned); every link and source then carries it.
    static func render(page: CataloguePage, isFirst: Bool = true, token: (String) -> String? = { _ in nil }) -> String {
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Filterz videos</title>
            <style>body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}
            article{border-bottom:1px solid #ddd;padding:1em 0}video{max-width:100%;background:#000}
            dt{font-weight:bold;float:left;width:8em}dd{margin-left:8em}.player-note{color:#a00}</style></head>
            <body><h1>Filterz videos</h1>

            """
        if page.videos.isEmpty && isFirst {
            html += "<p>No videos yet: a video is a folder with a <code>master.m3u8</code>.</p>\n"
        }
        for video in page.videos {
            let suffix = token(video.id).map { "?token=" + CatalogueURLs.encodeSegment($0) } ?? ""
            let master = CatalogueURLs.master(videoID: video.id) + suffix
            html += "<article id=\"\(HTMLText.escape(video.id))\"><h2>\(HTMLText.escape(video.title))</h2>\n"
            var videoTag =
                "<video id=\"video-\(HTMLText.escape(video.id))\" data-master=\"\(HTMLText.escape(master))\" controls preload=\"none\" width=\"640\""
            if let poster = video.posterRelativePath {
                let url = CatalogueURLs.file(videoID: video.id, relativePath: poster) + suffix
                videoTag += " poster=\"\(HTMLText.escape(url))\""
            }
            html += videoTag + "><source src=\"\(HTMLText.escape(master))\" type=\"application/vnd.apple.mpegurl\">"
            html += "<a href=\"\(HTMLText.escape(master))\">\(HTMLText.escape(master))</a></video>\n<dl>\n"
            html += "<dt>Filter</dt><dd>\(HTMLText.escape(video.filterName ?? "—"))</dd>\n"
            html += "<dt>Duration</dt><dd>\(video.durationSeconds.map(formatDuration) ?? "—")</dd>\n"
            let renditions = video.qualities.map(\.name).joined(separator: ", ")
            html += "<dt>Renditions</dt><dd>\(HTMLText.escape(renditions.isEmpty ? "—" : renditions))</dd>\n"
            let languages = video.subtitles.map(\.language).joined(separator: ", ")
            if !languages.isEmpty { html += "<dt>Subtitles</dt><dd>\(HTMLText.escape(languages))</dd>\n" }
            html +=
                "<dt>Playlist</dt><dd><a href=\"\(HTMLText.escape(master))\">\(HTMLText.escape(master))</a></dd>\n</dl></article>\n"
        }
        if page.nextCursor != CatalogueCursor.end {
            let next = "/?next=" + CatalogueURLs.encodeSegment(page.nextCursor)
            html += "<p class=\"next-page\"><a href=\"\(HTMLText.escape(next))\">Older videos</a></p>\n"
        }
        return html + "<script>\n" + IndexPagePlayer.script + "</script>\n</body></html>\n"
    }

    /// `m:ss` or `h:mm:ss`.
    static func formatDuration(_ seconds: Double) -> String {
        let total = Int(saturating: seconds.rounded())
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return total >= 3600
            ? "\(total / 3600):\(two(total / 60 % 60)):\(two(total % 60))" : "\(total / 60):\(two(total % 60))"
    }

}
