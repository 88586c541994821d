// The Playback module. See README.md, section "Playback".
