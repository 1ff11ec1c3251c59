// Code export of `text` layers: SwiftUI's Text in the layer's font, size, weight, colour and line
// spacing, placed as Welkin places it (the alignment point of its box at the unit point, `margin`
// points in from the sides a named position touches), with its transform about its own box, its
// shadow and opacity. A clock label is redrawn in a TimelineView by WelkinClock, Welkin's clock.

import WelkinCore

extension TextLayer: CodeExportable {
    func export(layer: Layer, index: Int, context c: ExportContext) {
        guard c.swiftUIOnly(layer, index: index, "Core Animation's CATextLayer cannot place a line's baseline; export with --swiftui for SwiftUI's Text") else { return }
        c.addView { s in s.lines(TextExport.swiftUI(self, layer: layer, index: index, c)) }
    }
}

enum TextExport {
    /// SwiftUI's `Font` for the layer: the system font for Welkin's default family (DejaVu Sans is
    /// Welkin's stand-in for it), the family by name otherwise; fixed sizes (no Dynamic Type), as Welkin's.
    static func font(_ text: TextLayer, _ c: ExportContext) -> String {
        let weight = ".\(text.weight.rawValue)"
        guard let name = text.fontName else { return ".system(size: \(c.n(text.size)), weight: \(weight))" }
        // A font file: its file name without the extension stands for the font's name; the app registers the file.
        let family = name.contains("/") || [".ttf", ".otf", ".ttc", ".otc"].contains(where: { name.lowercased().hasSuffix($0) })
            ? String((name.split(separator: "/").last ?? "").split(separator: ".").first ?? "") : name
        return ".custom(\(SwiftLiteral.string(family)), fixedSize: \(c.n(text.size))).weight(\(weight))"
    }

    /// SwiftUI's guides for Welkin's alignment point.
    static func guides(_ a: TextAlignment) -> (horizontal: String, vertical: String) {
        let h: String = switch a.horizontal { case .leading: ".leading"; case .center: ".center"; case .trailing: ".trailing" }
        let v: String = switch a.vertical { case .top: ".top"; case .center: ".center"; case .baseline: ".firstTextBaseline"; case .bottom: ".bottom" }
        return (h, v)
    }

    static func swiftUI(_ text: TextLayer, layer: Layer, index: Int, _ c: ExportContext) -> String {
        let kind = layer.content.typeName
        c.require(iOS: 15, macOS: 12)
        var readsTime = false
        var s = SwiftSource()
        s.comment(c.label(layer, index: index, kind: kind) + " → SwiftUI's Text: its alignment point at its position (Welkin's top and bottom are the first line's ascender and the last line's descender; SwiftUI's are its line box's).")
        let string: String
        if text.template.isConstant {
            string = SwiftLiteral.string(text.template.render(Timestamp(unixSeconds: 0, offsetSeconds: 0)))
        } else {
            let name = c.name(for: layer, index: index, suffix: "Clock")
            c.runtime.insert("clock")
            c.members.comment("The label \(SwiftLiteral.string(SwiftLiteral.commentText(text.string))): Welkin's clock at the scene time.", prefix: "/// ")
            c.members.block("private static let \(name) = WelkinClock(", ")") { s in clockArguments(text.template, c.scene, into: &s) }
            string = "Self.\(name).string(at: t)"
            readsTime = true
        }
        let color = AnimationExport.swiftUI(text.color, AnimationExport.color(c), name: c.name(for: layer, index: index, suffix: "Color"),
                                            what: "the text's colour", index: index, layerKind: kind, c)
        readsTime = readsTime || color.readsTime
        let (modifiers, modifiersReadTime) = LayerModifiers.swiftUI(layer, index: index, c)
        readsTime = readsTime || modifiersReadTime
        let (h, v) = guides(text.alignment)
        let textAlignment: String = switch text.alignment.horizontal { case .leading: ".leading"; case .center: ".center"; case .trailing: ".trailing" }
        // Where the alignment point goes: the unit point, `margin` points in from a named position's sides.
        var inward = SIMD2<Double>(0, 0)
        if let inside = text.inside {
            inward.x = inside.horizontal == .leading ? text.margin : inside.horizontal == .trailing ? -text.margin : 0
            inward.y = inside.vertical == .top ? text.margin : inside.vertical == .bottom ? -text.margin : 0
        }
        func at(_ unit: Double, _ size: String, _ points: Double) -> String {
            "proxy.size.\(size) * \(c.n(unit))" + (points == 0 ? "" : points > 0 ? " + \(c.n(points))" : " - \(c.n(-points))")
        }
        var body = SwiftSource()
        body.line("Text(verbatim: \(string))")
        body.line("    .font(\(font(text, c)))")
        body.line("    .foregroundStyle(\(color.code))")
        body.line("    .multilineTextAlignment(\(textAlignment))")
        if text.lineSpacing != 0 { body.line("    .lineSpacing(\(c.n(text.lineSpacing)))") }
        body.line("    .fixedSize()")
        for m in modifiers { body.line("    " + m) }
        body.line("    .alignmentGuide(.leading) { d in d[HorizontalAlignment\(h)] - (\(at(text.position.x, "width", inward.x))) }")
        body.line("    .alignmentGuide(.top) { d in d[VerticalAlignment\(v)] - (\(at(text.position.y, "height", inward.y))) }")
        body.line("    .frame(width: proxy.size.width, height: proxy.size.height, alignment: .topLeading)")
        var placed = SwiftSource()
        placed.block("GeometryReader { proxy in") { s in s.lines(body.text) }
        s.lines(LayerModifiers.wrapInTimeline(placed.text, readsTime: readsTime, c))
        return s.text
    }

    /// The arguments of `WelkinClock(…)`: the template's parts and the scene's clock (Scene.clock).
    static func clockArguments(_ template: TextTemplate, _ scene: Scene, into s: inout SwiftSource) {
        func field(_ f: TextTemplate.Field) -> String {
            switch f {
            case .text(let t): return ".text(\(SwiftLiteral.string(t)))"
            default: return ".\(f)"
            }
        }
        let parts = template.parts.map { part -> String in
            switch part {
            case .text(let t): return ".text(\(SwiftLiteral.string(t)))"
            case .time(let fields): return ".time([\(fields.map(field).joined(separator: ", "))])"
            }
        }
        var start = 0.0, rate = 1.0, offset = 0.0, utc = 0
        for layer in scene.layers {
            if case .sky(let sky)? = layer.content as? SkyContent, case .computed(let date, _, _, let timeScale) = sky.sun {
                start = date.unixSeconds; rate = timeScale; offset = sky.clockOffset; utc = date.offsetSeconds
                break
            }
        }
        s.line("parts: [\(parts.joined(separator: ", "))],")
        s.line("start: \(SwiftLiteral.number(start)), rate: \(SwiftLiteral.number(rate)), offset: \(SwiftLiteral.number(offset)),")
        s.line("utcOffset: \(utc)")
    }
}
