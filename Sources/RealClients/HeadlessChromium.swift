import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's headless Chromium driven over W3C WebDriver: `chromedriver` listens on 127.0.0.1 and the test
/// speaks its JSON protocol with plain HTTP (no Selenium). One browser per value; `quit()` closes it and
/// stops chromedriver, so nothing is left running.
public final class HeadlessChromium: @unchecked Sendable {
    /// Why the browser cannot run here (nil when `chromium` and `chromedriver` are installed: `make deps`).
    public static var unavailableReason: String? {
        for tool in ["chromium", "chromedriver"] where ExternalTool.path(of: tool) == nil {
            return "\(tool) is not installed (make deps installs the Debian packages chromium and chromium-driver)"
        }
        return nil
    }

    public struct WebDriverError: Error, CustomStringConvertible {
        public var description: String
    }

    private let driver = Process()
    private let profile: TemporaryFolder
    private let base: String
    private let http = LoopbackHTTP(timeoutSeconds: 120)
    private var sessionID = ""

    private init(port: UInt16, profile: TemporaryFolder) throws {
        self.profile = profile
        base = "http://127.0.0.1:\(port)"
        driver.executableURL = URL(fileURLWithPath: ExternalTool.path(of: "chromedriver") ?? "chromedriver")
        driver.arguments = [
            "--port=\(port)", "--allowed-ips=127.0.0.1", "--log-path=\(profile.url.path)/chromedriver.log",
        ]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
    }

    deinit {
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
    }

    /// Starts chromedriver and a headless browser (root-friendly flags, autoplay without a user gesture).
    /// `acceptsAnyCertificate`: trust self-signed certificates (for a TLS edge made in a test).
    public static func start(acceptsAnyCertificate: Bool = false) async throws -> HeadlessChromium {
        let browser = try HeadlessChromium(
            port: try LoopbackPort.unused(), profile: TemporaryFolder(prefix: "filterz-chromium"))
        do {
            try await browser.waitUntilReady()
            let arguments =
                [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--mute-audio",
                    "--autoplay-policy=no-user-gesture-required", "--window-size=1024,768", "--no-first-run",
                    "--disable-crash-reporter", "--disable-breakpad",
                    "--user-data-dir=\(browser.profile.url.path)/profile",
                ] + (acceptsAnyCertificate ? ["--ignore-certificate-errors"] : [])
            let capabilities: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "goog:chromeOptions": [
                            "binary": ExternalTool.path(of: "chromium") ?? "chromium", "args": arguments,
                        ],
                    ]
                ]
            ]
            struct NewSession: Decodable { var sessionId: String }
            browser.sessionID = try await browser.command("POST", "/session", capabilities, as: NewSession.self)
                .sessionId
            return browser
        } catch {
            await browser.quit()
            throw error
        }
    }

    /// Loads `url` and waits for the page's load event.
    public func open(_ url: String) async throws {
        struct Empty: Decodable {}
        _ = try await command("POST", "/session/\(sessionID)/url", ["url": url], as: Empty?.self)
    }

    /// Runs a script's body in the page (`arguments[0]`… are `arguments`); its return value is decoded as `T`.
    public func run<T: Decodable>(_ script: String, _ arguments: [Any] = [], as type: T.Type) async throws -> T {
        try await command(
            "POST", "/session/\(sessionID)/execute/sync", ["script": script, "args": arguments], as: T.self)
    }

    /// How long an asynchronous script may run (WebDriver's default is 30 s).
    public func setScriptTimeout(seconds: Double) async throws {
        struct Empty: Decodable {}
        _ = try await command(
            "POST", "/session/\(sessionID)/timeouts", ["script": Int(seconds * 1000)], as: Empty?.self)
    }

    /// Runs an asynchronous script: it ends by calling `arguments[arguments.length - 1](result)`.
    public func runAsync<T: Decodable>(_ script: String, _ arguments: [Any] = [], as type: T.Type) async throws -> T {
        try await command(
            "POST", "/session/\(sessionID)/execute/async", ["script": script, "args": arguments], as: T.self)
    }

    /// A PNG of the first element matching `cssSelector`, as the browser painted it.
    public func screenshot(of cssSelector: String) async throws -> Data {
        struct Element: Decodable {
            var id: String
            enum CodingKeys: String, CodingKey { case id = "element-6066-11e4-a52e-4f735466cecf" }
        }
        let element = try await command(
            "POST", "/session/\(sessionID)/element", ["using": "css selector", "value": cssSelector], as: Element.self)
        let base64 = try await command(
            "GET", "/session/\(sessionID)/element/\(element.id)/screenshot", nil, as: String.self)
        guard let png = Data(base64Encoded: base64) else {
            throw WebDriverError(description: "screenshot is not base64")
        }
        return png
    }

    /// Closes the browser and stops chromedriver (waiting for it to exit).
    public func quit() async {
        if !sessionID.isEmpty { _ = try? await http.send("DELETE", base + "/session/\(sessionID)") }
        sessionID = ""
        if driver.isRunning { kill(driver.processIdentifier, SIGTERM) }
        for _ in 0..<50 where driver.isRunning { try? await Task.sleep(nanoseconds: 100_000_000) }
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
    }

    private func waitUntilReady() async throws {
        struct Status: Decodable { var ready: Bool }
        var lastError = "no answer"
        for _ in 0..<200 {
            do {
                if try await command("GET", "/status", nil, as: Status.self).ready { return }
            } catch {
                lastError = "\(error)"
            }
            guard driver.isRunning else { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        let log =
            (try? String(contentsOf: profile.url.appendingPathComponent("chromedriver.log"), encoding: .utf8)) ?? ""
        throw WebDriverError(description: "chromedriver did not start: \(lastError); its log: \(log.suffix(2000))")
    }

    /// One WebDriver command; the answer's `value` decoded as `T`, or the WebDriver error as a thrown error.
    private func command<T: Decodable>(_ method: String, _ path: String, _ body: [String: Any]?, as type: T.Type)
        async throws -> T
    {
        let json = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try await http.send(
            method, base + path, json: json ?? (method == "POST" ? Data("{}".utf8) : nil))
        guard response.status == 200 else {
            let failure = try? JSONDecoder().decode(WebDriverAnswer<WebDriverFailure>.self, from: Data(response.body))
            throw WebDriverError(
                description: "\(method) \(path): HTTP \(response.status) "
                    + (failure.map { "\($0.value.error): \($0.value.message)" } ?? response.bodyText))
        }
        return try JSONDecoder().decode(WebDriverAnswer<T>.self, from: Data(response.body)).value
    }
}

/// Every WebDriver answer is `{"value": …}`.
private struct WebDriverAnswer<Value: Decodable>: Decodable {
    var value: Value
}

private struct WebDriverFailure: Decodable {
    var error: String
    var message: String
}
