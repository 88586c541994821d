// swift-tools-version: 6.1
// Filterz: HLS toolkit — playlists, colour filter, segmenter, server, simulator.
// No package dependencies: C libraries come from Debian through system-library targets.
import PackageDescription

let package = Package(
    name: "Filterz",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "filterz", targets: ["filterz"]),
        .executable(name: "filterz-full", targets: ["filterz-full"]),
        .executable(name: "filterz-bench", targets: ["filterz-bench"]),
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "FilterKit", targets: ["FilterKit"]),
    ],
    targets: [
        // Pure cores: no I/O, no C. `JSON` is the one JSON value type (strict reader, ordered writer) under all.
        .target(name: "JSON"),
        // Exact media time (`Timestamp`), shared by the camera (FilterKit) and the packager.
        .target(name: "MediaTime"),
        // Concurrency helpers on the standard library alone: result slots filled by index, detached threads.
        .target(name: "Parallel"),
        // Text notations shared by playlists and HTTP: calendar dates and ISO 8601 date-times, percent-encoding.
        .target(name: "Notation"),
        .target(name: "HLS", dependencies: ["JSON", "Notation"]),
        .target(name: "FilterKit", dependencies: ["JSON", "MediaTime", "Parallel"]),
        .target(name: "Playback", dependencies: ["JSON", "HLS"]),
        // Network traces: periods of bandwidth and latency, their JSON format, and what a looping trace carries
        // over time (the simulator's download model and the server's shaped links both walk it).
        .target(name: "Traces", dependencies: ["JSON"]),
        .target(name: "Simulation", dependencies: ["JSON", "HLS", "Playback", "Parallel", "Markup", "Traces"]),
        .target(name: "Packaging", dependencies: ["Notation", "HLS", "MediaTime"]),
        .target(name: "PhotoMetadata", dependencies: ["JSON"]),
        // Segment-level checks (inspect --deep): rules over facts a probe measured; bitstream headers read here.
        .target(name: "StreamAudit", dependencies: ["JSON", "HLS"]),
        .target(name: "Markup"),

        // C libraries (Debian -dev packages, found through pkg-config).
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [
                .apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])
            ]),
        // Linux system calls Glibc's module lacks (openat2, statx, epoll, eventfd): a header only, nothing to link.
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        // Adapters: the only modules that touch C. `Platform` is the small OS layer they and the CLI share:
        // files written atomically, folders swapped in whole, termination signals.
        .target(name: "Platform", dependencies: ["CLinux"]),
        // One blocking HTTP(S) request through libcurl, its body bounded as it arrives (inspect's and simulate's
        // downloads).
        .target(name: "HTTPClient", dependencies: ["CCurl"]),
        // The libav adapter: decoding, scaling, encoding, muxing, the segment probe. It writes no playlist.
        .target(name: "Media", dependencies: ["Packaging", "FilterKit", "StreamAudit", "CFFmpeg"]),
        // How a recording is made: a source pulled frame by frame, the job's decisions performed, the encoder
        // threads, segment and part files, keys and playlists (no C of its own: libav through `Media`).
        .target(
            name: "Recording",
            dependencies: ["Media", "Packaging", "FilterKit", "HLS", "Encryption", "Platform", "Parallel"]),
        .target(
            name: "Server",
            dependencies: ["JSON", "Notation", "HLS", "Parallel", "Markup", "Traces", "CLinux", "CCrypto", "CZlib"],
            resources: [.embedInCode("Catalogue/IndexPagePlayer.js")]),
        .target(
            name: "Photos",
            dependencies: ["JSON", "FilterKit", "PhotoMetadata", "CTurboJPEG", "CHeif", "CPNG", "CZlib"]),
        // AES-128-CBC and content keys (libcrypto, getrandom): segments encrypted for HLS METHOD=AES-128.
        .target(name: "Encryption", dependencies: ["CCrypto", "Platform"]),

        // Command line. `CLIKit`: commands, typed options, parsing, help screens, exit codes (no C, no I/O
        // beyond the outputs it is given). `Inspect`: playlist inspection and its reports, on HLS alone.
        .target(name: "CLIKit", dependencies: ["JSON"]),
        .target(name: "Inspect", dependencies: ["CLIKit", "JSON", "Notation", "HLS", "Parallel"]),
        .target(
            name: "FilterzCLI",
            dependencies: [
                "CLIKit", "Inspect", "JSON", "HLS", "FilterKit", "Playback", "Simulation", "Packaging", "StreamAudit",
                "Platform", "Media", "Recording", "Server",
                "PhotoMetadata", "Photos", "Encryption", "Parallel", "HTTPClient", "Markup",
            ]),
        // `filterz` is small: it runs a plain `inspect` of a file itself and hands every other command line to
        // `filterz-full` beside it (exec, same process), so inspecting a playlist does not load libav and libcurl.
        // The Swift runtime linked in statically: a plain inspect starts without loading its shared libraries.
        .executableTarget(
            name: "filterz", dependencies: ["CLIKit", "Inspect"], linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        .executableTarget(name: "filterz-full", dependencies: ["FilterzCLI"]),
        .executableTarget(
            name: "filterz-bench",
            dependencies: [
                "JSON", "Notation", "HLS", "FilterKit", "Playback", "Simulation", "Packaging", "StreamAudit", "Media",
                "Recording", "Server", "PhotoMetadata",
                "Photos", "Encryption", "CLIKit", "Inspect", "FilterzCLI", "RealClients", "Parallel",
            ]),

        // Tests (Swift Testing). FilterzTestSupport: scope traits, seeded randomness, the built `filterz` as a child
        // process, command lines run in process (CLIKit); PhotoTestSupport makes test photos (generated frames
        // encoded by Photos, EXIF written by exiftool).
        // The real clients tests and benchmarks judge the output with: headless Chromium over WebDriver and hls.js
        // in it, GStreamer, VLC, outside tools run with a deadline, a raw HTTP/1.1 client, the shared data.
        .target(name: "RealClients"),
        .target(
            name: "FilterzTestSupport", dependencies: ["FilterKit", "CLIKit", "RealClients"], path: "Tests/Support",
            exclude: ["Photos"]),
        .target(
            name: "PhotoTestSupport", dependencies: ["FilterKit", "Photos", "PhotoMetadata", "FilterzTestSupport"],
            path: "Tests/Support/Photos"),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "FilterzTestSupport"]),
        .testTarget(name: "ParallelTests", dependencies: ["Parallel"]),
        .testTarget(name: "MarkupTests", dependencies: ["Markup"]),
        .testTarget(
            name: "HLSTests", dependencies: ["JSON", "Notation", "HLS", "Parallel", "FilterzTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FilterKitTests", dependencies: ["JSON", "MediaTime", "FilterKit", "Parallel", "FilterzTestSupport"]),
        .testTarget(name: "PlaybackTests", dependencies: ["Playback", "HLS", "FilterzTestSupport"]),
        .testTarget(name: "TracesTests", dependencies: ["Traces", "FilterzTestSupport"]),
        .testTarget(
            name: "SimulationTests",
            dependencies: ["JSON", "Simulation", "Playback", "HLS", "Parallel", "FilterzTestSupport"]),
        .testTarget(name: "PackagingTests", dependencies: ["Packaging", "HLS", "FilterzTestSupport"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "FilterzTestSupport"]),
        .testTarget(name: "EncryptionTests", dependencies: ["Encryption", "FilterzTestSupport"]),
        .testTarget(name: "StreamAuditTests", dependencies: ["StreamAudit", "HLS", "FilterzTestSupport"]),
        .testTarget(
            name: "MediaTests", dependencies: ["Media", "Packaging", "FilterKit", "HLS", "FilterzTestSupport"]),
        .testTarget(
            name: "RecordingTests", dependencies: ["Recording", "FilterzTestSupport", "RealClients"]),
        .testTarget(
            name: "ServerTests", dependencies: ["JSON", "Server", "HLS", "FilterKit", "Traces", "FilterzTestSupport"]),
        .testTarget(name: "PhotoMetadataTests", dependencies: ["PhotoMetadata", "FilterKit", "FilterzTestSupport"]),
        .testTarget(
            name: "PhotosTests",
            dependencies: ["Photos", "PhotoMetadata", "FilterKit", "FilterzTestSupport", "PhotoTestSupport"]),
        // The command line without libav: CLIKit alone, and inspection (the lean `filterz` included).
        .testTarget(name: "CLIKitTests", dependencies: ["CLIKit", "FilterzTestSupport"]),
        .testTarget(
            name: "InspectTests",
            dependencies: ["Inspect", "CLIKit", "HLS", "FilterzTestSupport", "RealClients"]),
        // Every command of `filterz-full` in process and the built binaries as processes: record, package,
        // serve, simulate, photo, presets, `inspect` over HTTP and `--deep`, real players and browsers.
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "CLIKit", "Inspect", "FilterzCLI", "Recording", "JSON", "HLS", "StreamAudit", "FilterKit", "PhotoMetadata",
                "Photos", "Parallel", "FilterzTestSupport", "PhotoTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
