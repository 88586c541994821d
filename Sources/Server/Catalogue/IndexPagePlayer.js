// Plays each <video data-master="…"> of the index page through Media Source Extensions when the browser has no
// native HLS. Written for what filterz record/package make: one video variant (MPEG-TS or fMP4 with
// EXT-X-MAP), an optional AUDIO rendition, finished or live. No adaptive switching: the richest variant within
// 4 Mb/s is played. Anything else gets a note with the playlist link instead of a silent black box. Live, it
// plays up to 1.5x as fast while it is behind its hold-back from the live edge (after start-up or a stall).
"use strict";
(function () {
  var aheadSeconds = 30, bitsPerSecondCap = 4e6, catchUpMaximum = 1.5;

  function attributes(text) {
    var out = {}, pattern = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g, match;
    while ((match = pattern.exec(text))) out[match[1]] = match[2].replace(/^"|"$/g, "");
    return out;
  }
  function resolve(uri, base) { return new URL(uri, base).href; }
  function lines(text) { return text.split(/\r?\n/).map(function (line) { return line.trim(); }).filter(Boolean); }

  // Variants and the audio rendition URL of each AUDIO group (the DEFAULT one, else the first).
  function parseMultivariant(text, base) {
    var all = lines(text), variants = [], audio = {};
    for (var i = 0; i < all.length; i++) {
      var line = all[i];
      if (line.indexOf("#EXT-X-MEDIA:") === 0) {
        var media = attributes(line.slice(13)), group = media["GROUP-ID"];
        if (media.TYPE === "AUDIO" && media.URI && (media.DEFAULT === "YES" || !audio[group])) audio[group] = resolve(media.URI, base);
      } else if (line.indexOf("#EXT-X-STREAM-INF:") === 0 && i + 1 < all.length && all[i + 1].charAt(0) !== "#") {
        var stream = attributes(line.slice(18));
        variants.push({
          bandwidth: Number(stream.BANDWIDTH) || 0,
          codecs: (stream.CODECS || "").split(",").map(function (c) { return c.trim(); }).filter(Boolean),
          audio: stream.AUDIO, url: resolve(all[++i], base),
        });
      }
    }
    return { variants: variants, audio: audio };
  }

  function parseMedia(text, base) {
    var playlist = { init: null, segments: [], durations: [], ended: false, targetSeconds: 6, sequence: 0, byteRanges: false };
    lines(text).forEach(function (line) {
      if (line.indexOf("#EXTINF:") === 0) playlist.durations.push(parseFloat(line.slice(8)) || 0);
      if (line.indexOf("#EXT-X-MAP:") === 0) playlist.init = resolve(attributes(line.slice(11)).URI, base);
      else if (line.indexOf("#EXT-X-TARGETDURATION:") === 0) playlist.targetSeconds = Number(line.slice(22)) || 6;
      else if (line.indexOf("#EXT-X-MEDIA-SEQUENCE:") === 0) playlist.sequence = Number(line.slice(22)) || 0;
      else if (line.indexOf("#EXT-X-BYTERANGE") === 0) playlist.byteRanges = true;
      else if (line === "#EXT-X-ENDLIST") playlist.ended = true;
      else if (line.charAt(0) !== "#") playlist.segments.push(resolve(line, base));
    });
    playlist.holdBackSeconds = 3 * playlist.targetSeconds;
    return playlist;
  }

  // The playback rate for a live stream `behind` seconds behind its live edge that aims at `target` seconds
  // behind, with `ahead` seconds buffered, now playing at `rate`: up to 1.5x while it is more than half a second
  // behind its aim and has a second buffered, back to 1x within a tenth of a second of it (or when the buffer
  // runs low), so that start-up and stalls are won back instead of adding up.
  function catchUpRate(behind, target, ahead, rate) {
    var excess = behind - target;
    if (ahead < 1 || excess < 0.1) return 1;
    if (rate > 1 || excess > 0.5) return Math.min(catchUpMaximum, 1 + excess / 2);
    return 1;
  }

  function load(url, kind) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      return kind === "text" ? response.text() : response.arrayBuffer();
    });
  }
  function sleep(seconds) { return new Promise(function (done) { setTimeout(done, seconds * 1000); }); }
  function container(playlist, url) { return playlist.init || /\.(m4s|mp4)(\?|$)/.test(url) ? "mp4" : "mp2t"; }

  // One SourceBuffer fed from one media playlist, segment by media sequence number.
  function Track(source, video, url, playlist, mime) {
    this.video = video; this.url = url; this.playlist = playlist; this.initDone = false;
    // Media seconds appended so far ("sequence" mode lays them end to end from 0), and when the playlist was read.
    this.appendedSeconds = 0; this.loadedAt = performance.now();
    this.buffer = source.addSourceBuffer(mime);
    // Segments are appended in order, so "sequence" mode lays them end to end from 0: the page's clock reads
    // the stream's own time (0:05 is five seconds in), whatever the first timestamp of the MPEG-TS is.
    this.buffer.mode = "sequence";
    // Live: start three segments from the end; finished: from the start.
    this.next = playlist.sequence + (playlist.ended ? 0 : Math.max(0, playlist.segments.length - 3));
  }
  Track.prototype.append = function (bytes) {
    var buffer = this.buffer;
    return new Promise(function (done, fail) {
      buffer.addEventListener("updateend", done, { once: true });
      buffer.addEventListener("error", function () { fail(new Error("the browser refused a segment")); }, { once: true });
      buffer.appendBuffer(bytes);
    });
  };
  Track.prototype.finished = function () {
    return this.playlist.ended && this.next >= this.playlist.sequence + this.playlist.segments.length;
  };
  Track.prototype.feed = async function () {
    while (!this.finished()) {
      var video = this.video, ranges = video.buffered;
      if (ranges.length && ranges.end(ranges.length - 1) - video.currentTime > aheadSeconds) { await sleep(1); continue; }
      if (this.playlist.init && !this.initDone) { await this.append(await load(this.playlist.init)); this.initDone = true; }
      var index = this.next - this.playlist.sequence;
      if (index < this.playlist.segments.length) {
        await this.append(await load(this.playlist.segments[index]));
        this.appendedSeconds += this.playlist.durations[index] || 0;
        this.next++;
        // MPEG-TS timestamps rarely start at 0: start where the media does.
        if (video.buffered.length && video.currentTime < video.buffered.start(0)) video.currentTime = video.buffered.start(0);
      } else {
        await sleep(Math.max(1, this.playlist.targetSeconds / 2));
        this.playlist = parseMedia(await load(this.url, "text"), this.url);
        this.loadedAt = performance.now();
      }
    }
  };
  // Seconds between the live edge (the end of the last listed segment, moved on by the time since the playlist
  // was read) and the playhead.
  Track.prototype.behindLiveEdge = function () {
    var listed = 0;
    for (var i = this.next - this.playlist.sequence; i < this.playlist.durations.length; i++) listed += this.playlist.durations[i];
    return this.appendedSeconds + listed + (performance.now() - this.loadedAt) / 1000 - this.video.currentTime;
  };
  Track.prototype.keepUp = function () {
    var video = this.video, ranges = video.buffered;
    if (this.playlist.ended || video.paused || !ranges.length) { if (video.playbackRate !== 1) video.playbackRate = 1; return; }
    var ahead = ranges.end(ranges.length - 1) - video.currentTime, behind = this.behindLiveEdge();
    // For the curious (and the browser tests): how far behind the live edge the page plays, in seconds.
    video.setAttribute("data-behind-live-edge", behind.toFixed(2));
    var rate = catchUpRate(behind, this.playlist.holdBackSeconds, ahead, video.playbackRate);
    if (rate !== video.playbackRate) video.playbackRate = rate;
  };

  function note(video, text, master) {
    var paragraph = document.createElement("p");
    paragraph.className = "player-note";
    paragraph.textContent = text + " Open ";
    var link = document.createElement("a");
    link.href = master; link.textContent = master;
    paragraph.appendChild(link);
    paragraph.appendChild(document.createTextNode(" in Safari, VLC, ffplay or another HLS player."));
    video.insertAdjacentElement("afterend", paragraph);
  }

  // The tracks to play: the richest variant within the cap, and its AUDIO rendition if it has one, each with
  // its media playlist and the MIME type its SourceBuffer needs.
  async function planTracks(master) {
    var multivariant = parseMultivariant(await load(master, "text"), master);
    var variants = multivariant.variants.sort(function (a, b) { return a.bandwidth - b.bandwidth; });
    if (!variants.length) variants = [{ bandwidth: 0, codecs: ["avc1.64001f", "mp4a.40.2"], url: master }];
    var chosen = variants.filter(function (v) { return v.bandwidth <= bitsPerSecondCap; }).pop() || variants[0];
    var videoPlaylist = parseMedia(await load(chosen.url, "text"), chosen.url);
    var audioURL = chosen.audio && multivariant.audio[chosen.audio];
    var audioPlaylist = audioURL ? parseMedia(await load(audioURL, "text"), audioURL) : null;
    if (videoPlaylist.byteRanges || (audioPlaylist && audioPlaylist.byteRanges)) throw new Error("byte-range playlists are not supported here.");
    var audioCodecs = chosen.codecs.filter(function (c) { return c.indexOf("mp4a") === 0; });
    var videoCodecs = audioURL ? chosen.codecs.filter(function (c) { return c.indexOf("mp4a") !== 0; }) : chosen.codecs;
    var tracks = [{ url: chosen.url, playlist: videoPlaylist, mime: "video/" + container(videoPlaylist, chosen.url) + '; codecs="' + videoCodecs.join(",") + '"' }];
    if (audioPlaylist) {
      var audioMime = container(audioPlaylist, audioURL) === "mp4" ? "audio/mp4" : "video/mp2t";
      tracks.push({ url: audioURL, playlist: audioPlaylist, mime: audioMime + '; codecs="' + (audioCodecs.join(",") || "mp4a.40.2") + '"' });
    }
    return tracks;
  }

  // Media Source first, where it can take the stream (as hls.js does: some browsers that answer "maybe" for
  // HLS, like headless Chromium 156 here, fetch the stream natively but never show a frame); native HLS when
  // it cannot (Safari's Media Source has no MPEG-TS; iOS has no MediaSource); otherwise a note.
  async function start(video) {
    var master = new URL(video.getAttribute("data-master"), location.href).href;
    var native = !!video.canPlayType("application/vnd.apple.mpegurl");
    var plan = null, reason = "This browser plays neither HLS nor Media Source Extensions.";
    if (window.MediaSource) {
      try {
        plan = await planTracks(master);
        var refused = plan.filter(function (track) { return !MediaSource.isTypeSupported(track.mime); });
        if (refused.length) { reason = "This browser cannot play " + refused[0].mime + "."; plan = null; }
      } catch (error) {
        reason = "Cannot play here: " + String(error.message).replace(/\.?$/, ".");
      }
    }
    if (!plan) {
      video.setAttribute("data-player", native ? "native" : "none");
      if (!native) note(video, reason, master);
      return;
    }
    // The element gets its MediaSource at once (so its play button works); segments are fetched once it plays.
    var source = new MediaSource();
    var opened = new Promise(function (done) { source.addEventListener("sourceopen", done, { once: true }); });
    while (video.firstChild) video.removeChild(video.firstChild);
    video.src = URL.createObjectURL(source);
    video.setAttribute("data-player", "mse");
    video.addEventListener("play", function () {
      opened.then(function () {
        var tracks = plan.map(function (track) { return new Track(source, video, track.url, track.playlist, track.mime); });
        var keepingUp = setInterval(function () { tracks[0].keepUp(); }, 500);
        return Promise.all(tracks.map(function (track) { return track.feed(); })).finally(function () { clearInterval(keepingUp); });
      }).then(function () {
        if (source.readyState === "open") source.endOfStream();
      }, function (error) {
        note(video, "Cannot play here: " + String(error.message).replace(/\.?$/, "."), master);
      });
    }, { once: true });
    // `?autoplay` on the page: start at once, muted (for browser tests).
    if (/[?&]autoplay(&|=|$)/.test(location.search)) { video.muted = true; video.play().catch(function () {}); }
  }

  if (typeof document !== "undefined") document.querySelectorAll("video[data-master]").forEach(start);
  if (typeof module !== "undefined") module.exports = { parseMultivariant: parseMultivariant, parseMedia: parseMedia, catchUpRate: catchUpRate };
})();
