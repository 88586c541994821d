/// The script of the index page: plays every `<video data-master="…">` through Media Source Extensions where
/// the browser's Media Source can take the stream, else leaves it to native HLS (Safari, iOS).
/// Written here, for the streams `filterz record`/`package` make: one variant (the richest within 4 Mb/s; no
/// adaptive switching), MPEG-TS or fMP4 (EXT-X-MAP), an optional AUDIO rendition, finished or live (the
/// media playlist is re-read every half target duration; the player catches up to its hold-back behind the live
/// edge after start-up or a stall by playing up to 1.5× as fast, as hls.js does with
/// `maxLiveSyncPlaybackRate: 1.5`, see docs/LIVE.md). When the browser cannot play a track's type (e.g. MPEG-TS
/// in Firefox) and there is no native HLS either, or a request fails, a `<p class="player-note">` with the
/// playlist link follows the video. `?autoplay` on the page starts every video at once, muted (for browser tests).
///
/// The script is `IndexPagePlayer.js` beside this file, compiled into the binary (SwiftPM's `embedInCode`);
/// `parseMultivariant`, `parseMedia` and `catchUpRate` are exported under Node (`module.exports`) for tests.
enum IndexPagePlayer {
    static let script = String(decoding: PackageResources.IndexPagePlayer_js, as: UTF8.self)
}
