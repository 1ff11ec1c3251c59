// Errors in scene files: every one names the file and the JSON path (or line:column for syntax).

/// A problem with a scene file, reported as `file: path: message`.
public struct SceneError: UserFacingError, Equatable, Sendable {
    /// Stable identifiers that tests and tools can match on.
    public enum Code: String, Sendable {
        case unreadableFile, invalidJSON, unknownKey, wrongType, nonFinite, outOfRange,
             unknownLayerType, missingKey, emptyStops, invalidColor, invalidValue
        /// An array of the wrong length (mesh points and colours).
        case wrongCount
    }
    public var code: Code
    public var file: String
    /// A JSON path like `layers[2].stops[1].location`, `line:column` for syntax errors, or `$` for
    /// the file as a whole (not printed: `file: message`).
    public var path: String
    public var message: String
    /// Where in the file the offending value starts, when known (errors are listed in this order).
    public var position: SourcePosition?

    public init(_ code: Code, file: String, path: String, _ message: String, position: SourcePosition? = nil) {
        self.code = code; self.file = file; self.path = path; self.message = message; self.position = position
    }

    public var description: String {
        if code == .invalidJSON { return "\(file):\(path): \(message)" }
        // `$` is JSONPath for the root; it means nothing to a reader, so the file stands alone.
        return path == "$" ? "\(file): \(message)" : "\(file): \(path): \(message)"
    }

    public var filePath: String? { file }
    public var jsonPath: String? { code == .invalidJSON || path == "$" ? nil : path }
}

/// Every error of a scene file (at most `Diagnostics.maximumErrors`, in file order), one a line as
/// `welkin validate` lists them, with a last line when the list was cut short.
public struct SceneErrors: UserFacingError, Sendable {
    public var errors: [SceneError]

    public init(_ errors: [SceneError]) { self.errors = errors }

    public var message: String { errors.first?.message ?? "" }
    public var filePath: String? { errors.first.map(\.file) }
    public var jsonPath: String? { errors.first?.jsonPath }
    public var description: String {
        var lines = errors.map(\.description)
        if errors.count >= Diagnostics.maximumErrors, let file = filePath {
            lines.append("\(file): stopped after \(Diagnostics.maximumErrors) errors")
        }
        return lines.joined(separator: "\n")
    }
}

/// Edit distance, for "did you mean …?" suggestions.
public func levenshtein(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased()), b = Array(b.lowercased())
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// The candidate nearest to `word`, if it is near enough to be a plausible typo.
public func nearest(_ word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, levenshtein(word, $0)) }.min(by: { $0.1 < $1.1 })
    guard let (best, distance) = scored else { return nil }
    let limit = max(2, best.count / 3)
    if distance <= limit { return best }
    // A different case or a prefix is a typo too ("endradius", "endRad").
    if best.lowercased().hasPrefix(word.lowercased()) && word.count >= 3 { return best }
    return nil
}
