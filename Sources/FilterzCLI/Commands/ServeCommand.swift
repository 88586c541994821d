import CLIKit
import Platform
import Server
import Synchronization

/// `filterz serve DIR`: the HLS server with the catalogue API, until SIGINT/SIGTERM.
enum ServeCommand {
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
                    .value("--host", placeholder: "address", help: "IPv4 or IPv6 address to listen on.", defaultValue: "127.0.0.1"),
                    .value("--port", placeholder: "port", help: "TCP port; 0 picks a free one.", defaultValue: "8080"),
                    .value(
                        "--cors-origin", placeholder: "origin",
                        help: "Access-Control-Allow-Origin on every response.", defaultValue: "*"),
                    .value(
                        "--token-secret", placeholder: "secret",
                        help: "Require signed URLs (?token=…) for media (or $FILTERZ_TOKEN_SECRET)."),
                    .value(
                        "--api-key", placeholder: "key",
                        help: "The app's API key: the catalogue API answers only requests sending it in X-API-Key (or $FILTERZ_API_KEY). Needed for the API when URLs are signed."),
                    .value(
                        "--token-ttl", placeholder: "seconds",
                        help: "Lifetime of the tokens in the stream API's and the index page's signed URLs.", defaultValue: "3600"),
                    .flag("--index", help: "With --token-secret, serve the HTML index anyway (its links are signed)."),
                    .value(
                        "--keys", placeholder: "folder",
                        help: "Answer /v1/videos/{id}/keys/{n}.key from folder/{id}/{n}.key (record --encrypt's keys), with the media's token check."),
                    .value(
                        "--connections-per-address", placeholder: "n",
                        help: "Connections one client address may hold; 0 for no cap (behind a proxy).", defaultValue: "256"),
                    .flag("--quiet", help: "No access log on stderr."),
                    .flag("--nginx-config", help: "Print an equivalent nginx server block and exit."),
                    .value(
                        "--upstream", placeholder: "url",
                        help: "With --nginx-config: print an edge block instead, nginx in front of the filterz origin at URL (listening on --host/--port)."),
                    .value("--tls-cert", placeholder: "file", help: "With --upstream: the edge's TLS certificate (PEM); HTTP/2 is served over TLS."),
                    .value("--tls-key", placeholder: "file", help: "With --upstream: the certificate's private key (PEM)."),
                    .value(
                        "--cache-dir", placeholder: "dir", help: "With --upstream: nginx's cache folder.",
                        defaultValue: "/var/cache/nginx/filterz"),
                ],
                examples: [
                    "filterz serve out --port 0",
                    "filterz serve out --host 0.0.0.0 --port 8080 --cors-origin https://app.example",
                    "FILTERZ_TOKEN_SECRET=s3cret filterz serve out",
                    "filterz serve out --nginx-config > filterz.conf",
                    "filterz serve out --nginx-config --upstream http://127.0.0.1:8080 --port 443 --tls-cert edge.pem --tls-key edge.key",
                ]),
            action: run)
    }

    /// Reads the options shared with `filterz sign`.
    static func configuration(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> ServerConfiguration {
        var configuration = ServerConfiguration(root: try args.positional(0, "dir"))
        configuration.host = args.value("--host") ?? "127.0.0.1"
        configuration.port = UInt16(try args.integer("--port", default: 8080, in: 0...65535))
        configuration.corsOrigin = args.value("--cors-origin") ?? "*"
        guard CORSPolicy.isValidOrigin(configuration.corsOrigin) else {
            throw .usage("--cors-origin expects * or one origin such as https://app.example, got '\(configuration.corsOrigin)'")
        }
        configuration.tokenSecret = try tokenSecret(args, context)
        if let key = args.value("--api-key") ?? context.environment["FILTERZ_API_KEY"] {
            guard !key.isEmpty else { throw .usage("--api-key (or FILTERZ_API_KEY) is empty") }
            configuration.apiKey = key
        }
        configuration.tokenLifetimeSeconds = Int64(try args.integer("--token-ttl", default: 3600, in: 1...31_536_000))
        configuration.servesIndexWhenSigned = args.flag("--index")
        if let keys = args.value("--keys").map({ EncryptionOptions.absolute($0) }) {
            let root = EncryptionOptions.absolute(configuration.root)
            guard keys != root && !keys.hasPrefix(root + "/") else {
                throw .usage("--keys \(keys) is inside the served folder \(root), where its files would be served to anyone")
            }
            configuration.keysFolder = keys
        }
        configuration.connectionsPerAddress = try args.integer("--connections-per-address", default: 256, in: 0...1_000_000)
        return configuration
    }

    /// `--token-secret`, else `$FILTERZ_TOKEN_SECRET`, else nil; an empty secret is a usage error.
    static func tokenSecret(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> String? {
        guard let secret = args.value("--token-secret") ?? context.environment["FILTERZ_TOKEN_SECRET"] else { return nil }
        guard !secret.isEmpty else { throw .usage("--token-secret (or FILTERZ_TOKEN_SECRET) is empty") }
        return secret
    }

    private static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let configuration = try configuration(args, context)
        if args.flag("--nginx-config") {
            // nginx refuses `listen …:0` ("invalid port"): it cannot pick a free port as we do.
            guard configuration.port != 0 else { throw CLIError.usage("--nginx-config needs a real --port (nginx cannot listen on port 0)") }
            let certificate = args.value("--tls-cert"), key = args.value("--tls-key")
            guard (certificate == nil) == (key == nil) else { throw CLIError.usage("--tls-cert and --tls-key go together") }
            let upstream = args.value("--upstream")
            if let upstream, !upstream.hasPrefix("http://") || upstream.count <= 7 {
                throw CLIError.usage("--upstream expects the origin's http://host:port, got '\(upstream)'")
            }
            do throws(ServerError) {
                if let upstream {
                    context.stdout.write(
                        try NginxEdgeConfig.serverBlock(
                            for: configuration, upstream: upstream, certificate: certificate, key: key,
                            cacheFolder: args.value("--cache-dir") ?? "/var/cache/nginx/filterz"))
                } else {
                    context.stdout.write(try NginxConfig.serverBlock(for: configuration))
                }
            } catch {
                throw CLIError.input(error.description)
            }
            return ExitCode.success
        }
        do throws(ServerError) {
            _ = try ServedFolder(path: configuration.root)
        } catch {
            throw CLIError.input(error.description)
        }
        // Before any server thread starts, so that SIGINT/SIGTERM wait for `TerminationSignals.wait()`.
        TerminationSignals.block()
        let server: HTTPServer
        do throws(ServerError) {
            let log = SerializedOutput(context.stderr)
            let writeLine: @Sendable (String) -> Void = { line in log.line(line) }
            let accessLog = args.flag("--quiet") ? nil : writeLine
            server = try HTTPServer(configuration: configuration, accessLog: accessLog)
        } catch .folderUnreadable(let path, let reason) {
            throw CLIError.input("cannot serve '\(path)': \(reason)")
        } catch {
            throw CLIError.failure(error.description)
        }
        context.stdout.line(server.baseURL + "/")
        let videos = server.handler.catalogue.videos().count
        context.stderr.line(
            "filterz serve: \(server.handler.folder.path) (\(videos) video\(videos == 1 ? "" : "s"))"
                + (configuration.tokenSecret != nil ? ", signed URLs required" : "")
                + (configuration.tokenSecret != nil && configuration.apiKey == nil ? ", catalogue API closed (no --api-key)" : "")
                + "; Ctrl-C stops")
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
