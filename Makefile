# Filterz — everything a fresh Debian machine needs, then build, test, benchmark, demo.
#   make demo   the main job end to end
#   make test   every test
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift

# Debian packages: C libraries we link (libav*, libcrypto, libcurl, zlib, libjpeg-turbo, libheif, libpng), real clients the
# tests and benchmarks drive (ffmpeg/ffprobe, curl, nginx, wrk, hyperfine, headless Chromium over chromedriver,
# Node for the index page player's script test and as the URL judge, exiftool for photo metadata, ImageMagick and libvips as the photo
# benchmark's anchors, GNU time for its children's peak memory, GStreamer's playbin3/hlsdemux2 and VLC as headless players).
DEB_PACKAGES := pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev \
	libssl-dev libcurl4-openssl-dev zlib1g-dev libturbojpeg0-dev libheif-dev libpng-dev ffmpeg curl nginx wrk hyperfine \
	chromium chromium-driver nodejs libimage-exiftool-perl imagemagick libvips-tools time \
	gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav vlc-bin vlc-plugin-base
PY_PACKAGES := m3u8==6.0.0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release test test-fast lint format docs fuzz bench demo clean

## deps: install missing Debian packages (apt-get update only when something is missing), the Python reference parser,
## and hls.js for the browser tests (scripts/fetch-hlsjs.sh).
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("m3u8") != "6.0.0")' 2>/dev/null || \
	  { echo "make deps: installing python m3u8 6.0.0"; python3 -m pip install -q --disable-pip-version-check $(PY_PACKAGES); }
	@scripts/fetch-hlsjs.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## test: the lint (swift-format, .swift-format), every Swift test, then the playlist-parser and photo-metadata fuzzers
## for 60 s each, the server-playlist and stream-audit fuzzers for 30 s each (a violation, a failure or a crash fails the
## target).
test: deps
	scripts/lint.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/fuzz.sh 60
	scripts/fuzz.sh 60 photo-metadata
	scripts/fuzz.sh 30 server-playlist
	scripts/fuzz.sh 30 stream-audit

## test-fast: the tests not tagged slow, browser or network (FILTERZ_TEST_SCOPE=fast skips those; see docs/TESTING.md).
test-fast: deps
	scripts/lint.sh
	$(SWIFT) build --build-tests
	FILTERZ_TEST_SCOPE=fast $(SWIFT) test --skip-build

## lint: swift-format's violations in Sources and Tests (scripts/lint.sh); format: fix them in place.
lint:
	scripts/lint.sh

format:
	swift format format -i -r --parallel Sources Tests

## docs: docs/CLI.md from the command specs (CLIReferenceTests fails when it is stale).
docs:
	$(SWIFT) build --product filterz && $(SWIFT) build --product filterz-full
	.build/debug/filterz help --markdown > docs/CLI.md.tmp && mv docs/CLI.md.tmp docs/CLI.md

## fuzz: libFuzzer for FUZZ_SECONDS on FUZZ_TARGET: playlist (default), photo-metadata, server-playlist or stream-audit (see
## scripts/fuzz.sh).
FUZZ_SECONDS ?= 60
FUZZ_TARGET ?= playlist
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGET)

## bench: one benchmark of filterz-bench in release mode: BENCH=parse (default), filter, segment, serve,
## shape, simulate, abr, fidelity, live, deep, defines or photo.
BENCH ?= parse
bench: release
	.build/release/filterz-bench $(BENCH)

## demo: record, preview, serve, inspect and simulate with the release binary (scripts/demo.sh).
demo: deps
	$(SWIFT) build -c release --product filterz && $(SWIFT) build -c release --product filterz-full
	scripts/demo.sh

clean:
	rm -rf .build demo-out
