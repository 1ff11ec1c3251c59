// The text layer: a string set in a font at a size, placed at a unit point, in a colour.
//
// Shaping (HarfBuzz), fonts (fontconfig) and glyph coverage (FreeType) are WelkinText's; this file
// holds the scene's side: the model, its defaults, and the clock placeholders of a live label.

import WelkinText

/// A `text` layer.
public struct TextLayer: Sendable, Equatable {
    /// As the scene wrote it (for messages and code export).
    public var string: String = ""
    /// The string with its `{time:…}` placeholders parsed.
    public var template: TextTemplate = TextTemplate(parts: [])
    /// As the scene wrote it; nil: the default family.
    public var fontName: String? = nil
    /// The font file or family it resolves to.
    public var font: FontRequest = FontRequest(.family(TextLayer.defaultFamily))
    /// Points per em.
    public var size: Double = 36
    public var weight: FontWeight = .regular
    public var position: UnitPoint = [0.5, 0.5]
    public var alignment: TextAlignment = .center
    /// Set when `position` is a name (`"top"`, `"bottomTrailing"`…): the text sits inside the frame
    /// at that side or corner, `margin` points in, as SwiftUI's frame alignment places a Text.
    public var inside: TextAlignment? = nil
    /// Points between the frame's edge and the text when `position` is a name.
    public var margin: Double = 16
    /// Extra points between lines, beyond the font's line height.
    public var lineSpacing: Double = 0
    /// Straight sRGB.
    public var color: Animated<RGBA> = .constant(.white)

    public init() {}

    /// Where the alignment point goes, in pixels of a frame `pixelSize` wide and high (`scale`
    /// pixels a point): the unit point, moved `margin` in from the sides a named position touches.
    public func origin(pixelSize: SIMD2<Double>, scale: SIMD2<Double>) -> SIMD2<Double> {
        var origin = position * pixelSize
        if let inside {
            let toward = SIMD2<Double>(inside.horizontal == .leading ? 1 : inside.horizontal == .trailing ? -1 : 0,
                                       inside.vertical == .top ? 1 : inside.vertical == .bottom ? -1 : 0)
            origin += toward * margin * scale
        }
        return origin
    }

    /// The family drawn when a layer names none: DejaVu Sans, from Debian's fonts-dejavu-core, which `make deps` installs.
    public static let defaultFamily = "DejaVu Sans"
    public static let maximumCharacters = 10_000
    public static let maximumLines = 500
    public static let maximumSize = 1000.0
}

/// SwiftUI's Font.Weight, as OpenType weights.
public enum FontWeight: String, Sendable, CaseIterable {
    case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

    /// 100 (ultraLight) … 900 (black).
    public var openType: Int { (FontWeight.allCases.firstIndex(of: self)! + 1) * 100 }
}

/// Where the position is on the text's box: SwiftUI's Alignment names, plus the first line's baseline.
public enum TextAlignment: String, Sendable, CaseIterable {
    case topLeading, top, topTrailing
    case leading, center, trailing
    case baselineLeading, baseline, baselineTrailing
    case bottomLeading, bottom, bottomTrailing

    public var horizontal: HorizontalTextAlignment {
        switch self {
        case .topLeading, .leading, .baselineLeading, .bottomLeading: return .leading
        case .top, .center, .baseline, .bottom: return .center
        case .topTrailing, .trailing, .baselineTrailing, .bottomTrailing: return .trailing
        }
    }

    public var vertical: VerticalTextAlignment {
        switch self {
        case .topLeading, .top, .topTrailing: return .top
        case .leading, .center, .trailing: return .center
        case .baselineLeading, .baseline, .baselineTrailing: return .baseline
        case .bottomLeading, .bottom, .bottomTrailing: return .bottom
        }
    }
}

/// A string with clock placeholders: `{time}` (HH:mm) or `{time:FORMAT}`; `{{` and `}}` are braces.
///
/// FORMAT fields: `yyyy` `yy` year, `MM` `M` month, `dd` `d` day, `HH` `H` hour 0–23, `hh` `h` hour
/// 1–12, `mm` minute, `ss` second, `a` AM/PM; other characters stand for themselves, and text in
/// single quotes is copied as it is ('' is a quote).
public struct TextTemplate: Sendable, Equatable {
    public enum Field: Sendable, Equatable {
        case text(String)
        case year4, year2, month2, month1, day2, day1, hour2, hour1, hour12x2, hour12x1, minute2, second2, amPM
    }
    public enum Part: Sendable, Equatable {
        case text(String)
        case time([Field])
    }
    public var parts: [Part]

    /// The format `{time}` means.
    public static let defaultTimeFormat = "HH:mm"

    /// True when there is no placeholder: the string is the same at every instant.
    public var isConstant: Bool { !parts.contains { if case .time = $0 { return true } else { return false } } }

    public struct SyntaxError: Error { public var message: String }

    public static func parse(_ s: String) throws -> TextTemplate {
        var parts: [Part] = []
        var text = ""
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            let next = s.index(after: i)
            if c == "{" && next < s.endIndex && s[next] == "{" { text.append("{"); i = s.index(after: next); continue }
            if c == "}" && next < s.endIndex && s[next] == "}" { text.append("}"); i = s.index(after: next); continue }
            if c == "}" { throw SyntaxError(message: "a lone '}': write '}}' for a brace") }
            guard c == "{" else { text.append(c); i = next; continue }
            guard let close = s[next...].firstIndex(of: "}") else {
                throw SyntaxError(message: "'{' opens a placeholder that never closes: write '{{' for a brace")
            }
            let inside = String(s[next..<close])
            let name = inside.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            guard name == "time" else {
                throw SyntaxError(message: "unknown placeholder '{\(inside)}' (expected {time} or {time:FORMAT}; '{{' for a brace)")
            }
            let format = inside.contains(":") ? String(inside[inside.index(after: inside.firstIndex(of: ":")!)...]) : defaultTimeFormat
            if !text.isEmpty { parts.append(.text(text)); text = "" }
            parts.append(.time(try fields(format)))
            i = s.index(after: close)
        }
        if !text.isEmpty { parts.append(.text(text)) }
        return TextTemplate(parts: parts)
    }

    static func fields(_ format: String) throws -> [Field] {
        var out: [Field] = []
        let chars = Array(format)
        var i = 0
        func literal(_ s: String) {
            if case .text(let t)? = out.last { out[out.count - 1] = .text(t + s) } else { out.append(.text(s)) }
        }
        while i < chars.count {
            let c = chars[i]
            var n = 1
            while i + n < chars.count && chars[i + n] == c { n += 1 }
            if c == "'" {
                if n >= 2 { literal(String(repeating: "'", count: n / 2)); i += n - n % 2; continue }
                guard let end = chars[(i + 1)...].firstIndex(of: "'") else { throw SyntaxError(message: "a quote in the time format never closes") }
                literal(String(chars[(i + 1)..<end])); i = end + 1; continue
            }
            guard c.isLetter && c.isASCII else { literal(String(repeating: c, count: n)); i += n; continue }
            let field: Field? = switch (c, n) {
            case ("y", 4): .year4
            case ("y", 2): .year2
            case ("M", 2): .month2
            case ("M", 1): .month1
            case ("d", 2): .day2
            case ("d", 1): .day1
            case ("H", 2): .hour2
            case ("H", 1): .hour1
            case ("h", 2): .hour12x2
            case ("h", 1): .hour12x1
            case ("m", 2): .minute2
            case ("s", 2): .second2
            case ("a", 1): .amPM
            default: nil
            }
            guard let field else {
                throw SyntaxError(message: "unknown time field '\(String(repeating: c, count: n))' (fields: yyyy yy MM M dd d HH H hh h mm ss a; quote other letters)")
            }
            out.append(field)
            i += n
        }
        return out
    }

    /// The string at `clock`'s local time (seconds rounded down, as a clock shows them).
    public func render(_ clock: Timestamp) -> String {
        let local = (clock.unixSeconds + Double(clock.offsetSeconds)).rounded(.down)
        let bounded = min(max(local, -1e14), 1e14)
        let days = Int((bounded / 86400).rounded(.down))
        let second = Int(bounded - Double(days) * 86400)
        let (y, m, d) = Timestamp.civilFromDays(days)
        let hour = second / 3600
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var out = ""
        for part in parts {
            switch part {
            case .text(let t): out += t
            case .time(let fields):
                for f in fields {
                    switch f {
                    case .text(let t): out += t
                    case .year4: out += y >= 0 && y < 10000 ? String(repeating: "0", count: 4 - String(y).count) + String(y) : String(y)
                    case .year2: out += two(((y % 100) + 100) % 100)
                    case .month2: out += two(m)
                    case .month1: out += String(m)
                    case .day2: out += two(d)
                    case .day1: out += String(d)
                    case .hour2: out += two(hour)
                    case .hour1: out += String(hour)
                    case .hour12x2: out += two(hour % 12 == 0 ? 12 : hour % 12)
                    case .hour12x1: out += String(hour % 12 == 0 ? 12 : hour % 12)
                    case .minute2: out += two(second / 60 % 60)
                    case .second2: out += two(second % 60)
                    case .amPM: out += hour < 12 ? "AM" : "PM"
                    }
                }
            }
        }
        return out
    }

    /// Every character the string can show: its text, and what its clock fields can print.
    public var possibleCharacters: String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let t): out += t
            case .time(let fields):
                for f in fields {
                    if case .text(let t) = f { out += t } else if f == .amPM { out += "AMP" } else { out += "0123456789-" }
                }
            }
        }
        return out
    }
}

extension Scene {
    /// The scene's clock at `time`: the first sky layer's date and time when it has one (its
    /// timeScale applied, in the date's UTC offset); otherwise `time` seconds after midnight.
    public func clock(at time: Double) -> Timestamp {
        for layer in layers {
            if case .sky(let sky)? = layer.content as? SkyContent, case .computed(let date, _, _, let timeScale) = sky.sun {
                let seconds = time * timeScale + sky.clockOffset
                return date.adding(seconds: seconds.isFinite ? seconds : 0)
            }
        }
        return Timestamp(unixSeconds: time.isFinite ? time : 0, offsetSeconds: 0)
    }
}
