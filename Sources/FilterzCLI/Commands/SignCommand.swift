import CLIKit
import Server

#if canImport(Glibc)
    import Glibc
#endif

/// `filterz sign VIDEO_ID`: a signed master-playlist URL for a server started with the same secret.
enum SignCommand {
    static let ttl = Option.integer(
        "--ttl", placeholder: "seconds", default: 3600, in: 1...(10 * 365 * 86_400),
        help: "How long the URL stays valid.")
    /// Read through `ServeCommand.tokenSecret`, which also looks at `$FILTERZ_TOKEN_SECRET`.
    static let secret = Option.optional(
        "--token-secret", placeholder: "secret", help: "The server's secret (or $FILTERZ_TOKEN_SECRET).")
    static let baseURL = Option.optional(
        "--base-url", placeholder: "url", help: "Prefix such as http://127.0.0.1:8080 (default: a root-relative URL).")

    static var command: Command {
        Command(
            CommandSpec(
                name: "sign",
                abstract: "Print a signed URL for one video of a server started with --token-secret.",
                discussion: """
                    The token is HMAC-SHA256 over the video id and the expiry; it opens every file of that video
                    (the server appends it to every URI of the playlists it serves) until it expires.
                    """,
                arguments: [ArgumentSpec("video-id", help: "The video's folder name.")],
                options: [ttl.spec, secret.spec, baseURL.spec],
                examples: [
                    "FILTERZ_TOKEN_SECRET=s3cret filterz sign warm-film --ttl 600 --base-url http://127.0.0.1:8080"
                ]),
            action: { args, context in
                let videoID = try args.positional(0, "video-id")
                let ttl = try args.get(Self.ttl)
                guard let secret = try ServeCommand.tokenSecret(args, context) else {
                    throw CLIError.usage("give --token-secret or set FILTERZ_TOKEN_SECRET")
                }
                var base = try args.get(Self.baseURL) ?? ""
                while base.hasSuffix("/") { base.removeLast() }
                let url = URLSigner(secret: secret).signedMasterURL(
                    videoID: videoID, expiresAt: Int64(time(nil)) + Int64(ttl))
                // The server's own path rules decide: an id it would refuse (empty, '/', '..', hidden) is no video.
                let path = String(url.prefix { $0 != "?" })
                guard case .success(let segments) = PathGuard.check(path),
                    segments == ["v1", "videos", videoID, "master.m3u8"]
                else {
                    throw CLIError.usage(
                        "'\(videoID)' cannot be a video id (a folder name the server serves: not empty, no '/', not hidden)"
                    )
                }
                context.stdout.line(base + url)
                return ExitCode.success
            })
    }
}
