import CLIKit
import Platform
import Recording
import Server
import Synchronization

/// `filterz serve DIR`: the HLS server with the catalogue API, until SIGINT/SIGTERM.
enum ServeCommand {
    static let host = Option.text(
        "--host", placeholder: "address", default: "127.0.0.1", help: "IPv4 or IPv6 address to listen on.")
    static let port = Option.integer(
        "--port", placeholder: "port", default: 8080, in: 0...65535, help: "TCP port; 0 picks a free one.")
    static let corsOrigin = Option.text(
        "--cors-origin", placeholder: "origin", default: "*", help: "Access-Control-Allow-Origin on every response.")
    /// Also read by `filterz sign` (its own spec names the same option).
    static let secret = Option.optional(
        "--token-secret", placeholder: "secret",
        help: "Require signed URLs (?token=…) for media (or $FILTERZ_TOKEN_SECRET).")
    static let apiKey = Option.optional(
        "--api-key", placeholder: "key",
        help:
            "The app's API key: the catalogue API answers only requests sending it in X-API-Key (or $FILTERZ_API_KEY). Needed for the API when URLs are signed."
    )
    static let tokenTTL = Option.integer(
        "--token-ttl", placeholder: "seconds", default: 3600, in: 1...31_536_000,
        help: "Lifetime of the tokens in the stream API's and the index page's signed URLs.")
    static let index = Option.flag(
        "--index", help: "With --token-secret, serve the HTML index anyway (its links are signed).")
    static let keys = Option.optional(
        "--keys", placeholder: "folder",
        help:
            "Answer /v1/videos/{id}/keys/{n}.key from folder/{id}/{n}.key (record --encrypt's keys), with the media's token check."
    )
    static let maxConnections = Option.optionalInteger(
        "--max-connections", placeholder: "n", in: 1...Int(Int32.max),
        help:
            "Connections held at once; by default as many as the descriptor limit (raised to its hard limit) allows, and no more."
    )
    static let connectionsPerAddress = Option.integer(
        "--connections-per-address", placeholder: "n", default: 256, in: 0...1_000_000,
        help: "Connections one client address may hold; 0 for no cap (behind a proxy).")
    static let quiet = Option.flag("--quiet", help: "No access log on stderr.")
    static let nginxConfig = Option.flag("--nginx-config", help: "Print an equivalent nginx server block and exit.")
    static let upstream = Option.optional(
        "--upstream", placeholder: "url",
        help:
            "With --nginx-config: print an edge block instead, nginx in front of the filterz origin at URL (listening on --host/--port)."
    )
    static let tlsCertificate = Option.optional(
        "--tls-cert", placeholder: "file",
        help: "With --upstream: the edge's TLS certificate (PEM); HTTP/2 is served over TLS.")
    static let tlsKey = Option.optional(
        "--tls-key", placeholder: "file", help: "With --upstream: the certificate's private key (PEM).")
    static let cacheFolder = Option.text(
        "--cache-dir", placeholder: "dir", default: "/var/cache/nginx/filterz",
        help: "With --upstream: nginx's cache folder.")

    static var command: Command {
        Command(
            CommandSpec(
                name: "serve",
                abstract: "Serve a folder of HLS videos over HTTP, with the catalogue API.",
                discussion: """
                    Every sub-folder with a master.m3u8 is a video (id = folder name): GET /v1/videos lists them,
                    GET /v1/videos/ID/stream gives its stream URLs, /v1/videos/ID/… and /ID/… serve its files, and /
                    is an HTML index. The first line printed is the URL listened on. SIGINT/SIGTERM stop accepting,
                    finish the requests in flight and exit 0.
                    """,
                arguments: [ArgumentSpec("dir", help: "The folder to serve.")],
                options: [
                    host.spec, port.spec, corsOrigin.spec, secret.spec, apiKey.spec, tokenTTL.spec, index.spec,
                    keys.spec, maxConnections.spec, connectionsPerAddress.spec, quiet.spec, nginxConfig.spec,
                    shape.spec, shapeBy.spec, faults.spec, faultSeed.spec, upstream.spec, tlsCertificate.spec,
                    tlsKey.spec, cacheFolder.spec,
                ],
                examples: [
                    "filterz serve out --port 0",
                    "filterz serve out --host 0.0.0.0 --port 8080 --cors-origin https://app.example",
                    "FILTERZ_TOKEN_SECRET=s3cret filterz serve out",
                    "filterz serve out --shape 3mbps,40ms",
                    "filterz serve out --shape train.json --faults 'path=*.ts,status=503,share=0.05'",
                    "filterz serve out --nginx-config > filterz.conf",
                    "filterz serve out --nginx-config --upstream http://127.0.0.1:8080 --port 443 --tls-cert edge.pem --tls-key edge.key",
                ]),
            action: run)
    }

    /// Reads the options shared with `filterz sign`.
    static func configuration(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError)
        -> ServerConfiguration
    {
        var configuration = ServerConfiguration(root: try args.positional(0, "dir"))
        configuration.host = try args.get(host)
        configuration.port = UInt16(try args.get(port))
        configuration.corsOrigin = try args.get(corsOrigin)
        guard CORSPolicy.isValidOrigin(configuration.corsOrigin) else {
            throw .usage(
                "--cors-origin expects * or one origin such as https://app.example, got '\(configuration.corsOrigin)'")
        }
        configuration.tokenSecret = try tokenSecret(args, context)
        if let key = try args.get(apiKey) ?? context.environment["FILTERZ_API_KEY"] {
            guard !key.isEmpty else { throw .usage("--api-key (or FILTERZ_API_KEY) is empty") }
            configuration.apiKey = key
        }
        configuration.tokenLifetimeSeconds = Int64(try args.get(tokenTTL))
        configuration.servesIndexWhenSigned = try args.get(index)
        let home = context.environment["HOME"]
        if let keys = try args.get(Self.keys).map({ KeySettings.absolute($0, home: home) }) {
            let root = KeySettings.absolute(configuration.root, home: home)
            guard keys != root && !keys.hasPrefix(root + "/") else {
                throw .usage(
                    "--keys \(keys) is inside the served folder \(root), where its files would be served to anyone")
            }
            configuration.keysFolder = keys
        }
        configuration.connectionLimit = try args.get(maxConnections)
        configuration.connectionsPerAddress = try args.get(connectionsPerAddress)
        return configuration
    }

    /// `--token-secret`, else `$FILTERZ_TOKEN_SECRET`, else nil; an empty secret is a usage error.
    static func tokenSecret(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> String? {
        guard let secret = try args.get(Self.secret) ?? context.environment["FILTERZ_TOKEN_SECRET"] else { return nil }
        guard !secret.isEmpty else { throw .usage("--token-secret (or FILTERZ_TOKEN_SECRET) is empty") }
        return secret
    }

    /// A `serve` command line checked whole before the folder is read or a socket opened: option values,
    /// their combinations, and `--max-connections` against the descriptor limit are usage errors (exit 2) at once.
    struct Plan {
        enum Job {
            /// Serve until SIGINT/SIGTERM; `quiet`: no access log.
            case serve(quiet: Bool)
            /// Print nginx's server block (`--nginx-config`), or an edge in front of `upstream` with its TLS pair.
            case nginxConfig(upstream: String?, certificate: String?, key: String?, cacheFolder: String)
        }

        var configuration: ServerConfiguration
        var job: Job

        static func parse(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Plan {
            var configuration = try ServeCommand.configuration(args, context)
            guard try args.get(nginxConfig) else {
                try shaping(args, into: &configuration)
                do throws(ServerError) {
                    _ = try HTTPServer.connectionCapacity(for: configuration)
                } catch {
                    throw .usage("--max-connections: \(error.description)")
                }
                return Plan(configuration: configuration, job: .serve(quiet: try args.get(quiet)))
            }
            if args.isGiven(shape) || args.isGiven(faults) {
                throw .usage("--shape and --faults shape filterz's own answers; nginx's config has neither")
            }
            // nginx refuses `listen …:0` ("invalid port"): it cannot pick a free port as we do.
            guard configuration.port != 0 else {
                throw .usage("--nginx-config needs a real --port (nginx cannot listen on port 0)")
            }
            let certificate = try args.get(tlsCertificate), key = try args.get(tlsKey)
            guard (certificate == nil) == (key == nil) else { throw .usage("--tls-cert and --tls-key go together") }
            let upstream = try args.get(ServeCommand.upstream)
            if let upstream, !upstream.hasPrefix("http://") || upstream.count <= 7 {
                throw .usage("--upstream expects the origin's http://host:port, got '\(upstream)'")
            }
            return Plan(
                configuration: configuration,
                job: .nginxConfig(
                    upstream: upstream, certificate: certificate, key: key, cacheFolder: try args.get(cacheFolder)))
        }
    }

    private static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let plan = try Plan.parse(args, context)
        switch plan.job {
        case .nginxConfig(let upstream, let certificate, let key, let cacheFolder):
            return try printNginxConfig(plan.configuration, upstream, certificate, key, cacheFolder, context)
        case .serve(let quiet):
            return try serve(plan.configuration, quiet: quiet, context)
        }
    }

    private static func printNginxConfig(
        _ configuration: ServerConfiguration, _ upstream: String?, _ certificate: String?, _ key: String?,
        _ cacheFolder: String, _ context: CommandContext
    ) throws(CLIError) -> Int32 {
        do throws(ServerError) {
            if let upstream {
                context.stdout.write(
                    try NginxEdgeConfig.serverBlock(
                        for: configuration, upstream: upstream, certificate: certificate, key: key,
                        cacheFolder: cacheFolder))
            } else {
                context.stdout.write(try NginxConfig.serverBlock(for: configuration))
            }
        } catch {
            throw .input(error.description)
        }
        return ExitCode.success
    }

    private static func serve(_ configuration: ServerConfiguration, quiet: Bool, _ context: CommandContext)
        throws(CLIError) -> Int32
    {
        do throws(ServerError) {
            _ = try ServedFolder(path: configuration.root)
        } catch {
            throw .input(error.description)
        }
        // Before any server thread starts, so that SIGINT/SIGTERM wait for `TerminationSignals.wait()`.
        TerminationSignals.block()
        let server: HTTPServer
        do throws(ServerError) {
            let log = SerializedOutput(context.stderr)
            let writeLine: @Sendable (String) -> Void = { line in log.line(line) }
            server = try HTTPServer(configuration: configuration, accessLog: quiet ? nil : writeLine)
        } catch .folderUnreadable(let path, let reason) {
            throw .input("cannot serve '\(path)': \(reason)")
        } catch {
            throw .failure(error.description)
        }
        context.stdout.line(server.baseURL + "/")
        let videos = server.handler.catalogue.count
        context.stderr.line(
            "filterz serve: \(server.handler.folder.path) (\(videos) video\(videos == 1 ? "" : "s"))"
                + (configuration.tokenSecret != nil ? ", signed URLs required" : "")
                + (configuration.tokenSecret != nil && configuration.apiKey == nil
                    ? ", catalogue API closed (no --api-key)" : "")
                + "; Ctrl-C stops")
        context.stderr.line("filterz serve: \(server.capacity.summary)")
        if let warning = server.capacity.warning { context.stderr.line("filterz serve: warning: \(warning)") }
        let signal = TerminationSignals.wait()
        context.stderr.line("filterz serve: \(signal == 2 ? "SIGINT" : "SIGTERM"): finishing requests in flight")
        server.stop(graceSeconds: 10)
        return ExitCode.success
    }
}

/// Lines from many threads (the server's) written one whole line at a time.
final class SerializedOutput: @unchecked Sendable {
    private let output: TextOutput
    private let lock = Mutex(())

    init(_ output: TextOutput) { self.output = output }

    func line(_ text: String) { lock.withLock { _ in output.line(text) } }
}
