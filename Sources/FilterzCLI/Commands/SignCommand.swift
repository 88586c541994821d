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
            action: { args, context in try run(Plan.parse(args, context), context) })
    }

    /// A `sign` command line checked whole: the id one the server would serve, the secret given.
    struct Plan {
        var videoID: String
        var secret: String
        var ttlSeconds: Int
        /// `--base-url` without its trailing slashes (empty: a root-relative URL).
        var base: String

        static func parse(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Plan {
            let videoID = try args.positional(0, "video-id")
            let ttl = try args.get(SignCommand.ttl)
            guard let secret = try ServeCommand.tokenSecret(args, context) else {
                throw .usage("give --token-secret or set FILTERZ_TOKEN_SECRET")
            }
            var base = try args.get(SignCommand.baseURL) ?? ""
            while base.hasSuffix("/") { base.removeLast() }
            // The server's own path rules decide: an id it would refuse (empty, '/', '..', hidden) is no video.
            guard case .success(let segments) = PathGuard.check(CatalogueURLs.master(videoID: videoID)),
                segments == ["v1", "videos", videoID, "master.m3u8"]
            else {
                throw .usage(
                    "'\(videoID)' cannot be a video id (a folder name the server serves: not empty, no '/', not hidden)"
                )
            }
            return Plan(videoID: videoID, secret: secret, ttlSeconds: ttl, base: base)
        }
    }

    static func run(_ plan: Plan, _ context: CommandContext) -> Int32 {
        let url = URLSigner(secret: plan.secret).signedMasterURL(
            videoID: plan.videoID, expiresAt: Int64(time(nil)) + Int64(plan.ttlSeconds))
        context.stdout.line(plan.base + url)
        return ExitCode.success
    }
}
