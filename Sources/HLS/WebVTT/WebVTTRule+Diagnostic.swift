extension Diagnostic {
    /// An error found in a WebVTT file.
    static func webVTT(_ rule: WebVTTRule, _ message: String, line: Int, column: Int = 1) -> Diagnostic {
        Diagnostic(
            severity: .error, code: DiagnosticCode(rule.rawValue), message: message,
            location: SourceLocation(line: line, column: column),
            specReference: rule.specReference)
    }
}
