// CSS Color 4's functional colours as scene files may write them: rgb()/rgba() and hsl()/hsla(),
// in the comma syntax or the space syntax with `/ alpha`, and color() in the display-p3, srgb and
// srgb-linear spaces (space syntax only, as CSS has it).

extension RGBA {
    /// The forms a colour may take, for error sentences.
    public static let acceptedForms = "a name (" + named.map(\.name).joined(separator: ", ") + "), "
        + "\"#rgb\", \"#rrggbb\", \"#rrggbbaa\", [r, g, b] or [r, g, b, a] in 0…1, "
        + "\"rgb(r, g, b)\", \"hsl(h, s%, l%)\" or \"color(display-p3 r g b)\" (also srgb, srgb-linear)"

    /// What `rgb()` takes, for its error sentence.
    static let rgbForms = "rgb(r, g, b), rgb(r, g, b, a) or rgb(r g b / a) with r, g, b in 0…255 or 0%…100% "
        + "and a in 0…1 or 0%…100%"
    /// What `hsl()` takes, for its error sentence.
    static let hslForms = "hsl(h, s%, l%), hsl(h, s%, l%, a) or hsl(h s% l% / a) with h in degrees, "
        + "s and l in 0%…100% and a in 0…1 or 0%…100%"

    /// What `color()` takes, for its error sentence.
    static let colorForms = "color(SPACE r g b) or color(SPACE r g b / a) with SPACE one of "
        + WrittenColor.Space.allCases.map(\.rawValue).joined(separator: ", ")
        + ", r, g, b in 0…1 or 0%…100% and a in 0…1 or 0%…100%"

    /// The CSS function a string calls (`rgb`, `rgba`, `hsl`, `hsla`, `color`), if it calls one.
    static func cssFunction(_ text: String) -> String? {
        for name in ["rgba", "rgb", "hsla", "hsl", "color"] where text.hasPrefix(name + "(") { return name }
        return nil
    }

    /// Parses `rgb()`, `rgba()`, `hsl()`, `hsla()` or `color()`. Nil when the string calls none of
    /// them; `.failure` with the sentence of what the function takes when its arguments are wrong.
    public static func parseCSS(_ text: String) -> Result<RGBA, CSSColorError>? {
        guard let name = cssFunction(text) else { return nil }
        if name == "color" { return colorFunction(text) }
        let isRGB = name.hasPrefix("rgb")
        let failure = Result<RGBA, CSSColorError>.failure(
            CSSColorError(message: "expected \(isRGB ? rgbForms : hslForms), got \"\(text)\""))
        guard text.hasSuffix(")"), let values = arguments(of: text, name: name) else { return failure }
        guard let color = isRGB ? rgb(values) : hsl(values) else { return failure }
        return .success(color)
    }

    /// The three arguments and the optional alpha between the parentheses, comma or space syntax.
    private static func arguments(of text: String, name: String) -> (values: [Substring], alpha: Substring?)? {
        let inner = text.dropFirst(name.count + 1).dropLast()
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
        let trim: (Substring) -> Substring = { s in
            let start = s.firstIndex(where: { !isSpace($0) }) ?? s.endIndex
            let end = s.lastIndex(where: { !isSpace($0) }).map { s.index(after: $0) } ?? start
            return s[start..<max(start, end)]
        }
        if inner.contains(",") {
            guard !inner.contains("/") else { return nil }
            let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map(trim)
            guard parts.count == 3 || parts.count == 4, parts.allSatisfy({ !$0.isEmpty && !$0.contains(where: isSpace) }) else { return nil }
            return (Array(parts.prefix(3)), parts.count == 4 ? parts[3] : nil)
        }
        let halves = inner.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        let values = halves[0].split(whereSeparator: isSpace)
        guard values.count == 3 else { return nil }
        guard halves.count == 2 else { return (values, nil) }
        let alpha = trim(halves[1])
        guard !alpha.isEmpty, !alpha.contains(where: isSpace) else { return nil }
        return (values, alpha)
    }

    /// A plain decimal number (no hex, no `inf`, no `nan`).
    private static func number(_ s: Substring) -> Double? {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
              let n = Double(s), n.isFinite else { return nil }
        return n
    }

    /// `50%` as 0.5; nil without the percent sign or outside 0%…100%.
    private static func percentage(_ s: Substring) -> Double? {
        guard s.hasSuffix("%"), let n = number(s.dropLast()), (0...100).contains(n) else { return nil }
        return n / 100
    }

    /// Alpha: a number in 0…1 or a percentage; 1 when absent.
    private static func alpha(_ s: Substring?) -> Double? {
        guard let s else { return 1 }
        if s.hasSuffix("%") { return percentage(s) }
        guard let n = number(s), (0...1).contains(n) else { return nil }
        return n
    }

    /// `color(display-p3 r g b / a)`, `color(srgb …)`, `color(srgb-linear …)`: the colour in
    /// extended sRGB, remembering the space and components written unless the space is srgb.
    private static func colorFunction(_ text: String) -> Result<RGBA, CSSColorError> {
        let failure = Result<RGBA, CSSColorError>.failure(CSSColorError(message: "expected \(colorForms), got \"\(text)\""))
        guard text.hasSuffix(")") else { return failure }
        let inner = text.dropFirst("color(".count).dropLast()
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
        let words = inner.split(whereSeparator: isSpace)
        guard let first = words.first else { return failure }
        guard let space = WrittenColor.Space(rawValue: String(first)) else {
            let known = WrittenColor.Space.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(CSSColorError(message: "unknown colour space '\(first)' in \"\(text)\"; color() takes \(known)"))
        }
        let rest = inner[first.endIndex...]
        guard !rest.contains(","), let args = arguments(of: "x(" + rest + ")", name: "x") else { return failure }
        var c: [Double] = []
        for s in args.values {
            if s.hasSuffix("%") {
                guard let p = percentage(s) else { return failure }
                c.append(p)
            } else {
                guard let n = number(s), (0...1).contains(n) else { return failure }
                c.append(n)
            }
        }
        guard let a = alpha(args.alpha) else { return failure }
        let components = SIMD3(c[0], c[1], c[2])
        let extended: SIMD3<Double>
        switch space {
        case .srgb: return .success(RGBA(c[0], c[1], c[2], a))
        case .srgbLinear: extended = SIMD3(ColorMath.encodeExtended(c[0]), ColorMath.encodeExtended(c[1]), ColorMath.encodeExtended(c[2]))
        case .displayP3: extended = ColorMath.displayP3ToExtendedSRGB(components)
        }
        var color = RGBA(extended.x, extended.y, extended.z, a)
        color.written = WrittenColor(space: space, components: components)
        return .success(color)
    }

    private static func rgb(_ args: (values: [Substring], alpha: Substring?)) -> RGBA? {
        var c: [Double] = []
        for s in args.values {
            if s.hasSuffix("%") {
                guard let p = percentage(s) else { return nil }
                c.append(p)
            } else {
                guard let n = number(s), (0...255).contains(n) else { return nil }
                c.append(n / 255)
            }
        }
        guard let a = alpha(args.alpha) else { return nil }
        return RGBA(c[0], c[1], c[2], a)
    }

    private static func hsl(_ args: (values: [Substring], alpha: Substring?)) -> RGBA? {
        guard let hue = hueDegrees(args.values[0]), let s = percentage(args.values[1]),
              let l = percentage(args.values[2]), let a = alpha(args.alpha) else { return nil }
        // CSS Color 4's hslToRgb.
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let chroma = s * min(l, 1 - l)
            return l - chroma * max(-1, min(k - 3, 9 - k, 1))
        }
        return RGBA(f(0), f(8), f(4), a)
    }

    /// A hue: degrees as a plain number or with `deg`, or in `rad`, `grad` or `turn`.
    private static func hueDegrees(_ s: Substring) -> Double? {
        let units: [(String, Double)] = [("deg", 1), ("grad", 0.9), ("rad", 180 / Double.pi), ("turn", 360)]
        for (unit, factor) in units where s.hasSuffix(unit) {
            return number(s.dropLast(unit.count)).map { $0 * factor }
        }
        return number(s)
    }
}

/// Why a CSS colour function's arguments were refused, as one sentence.
public struct CSSColorError: Error, Sendable, Equatable {
    public var message: String
}
