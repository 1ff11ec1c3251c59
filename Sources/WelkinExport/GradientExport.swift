// The four gradient kinds: SwiftUI's own gradient views (Welkin's semantics were designed to be
// SwiftUI's), or CAGradientLayers with their geometry remapped where Core Animation differs.

import WelkinCore

enum GradientExport {
    static func export(_ g: Gradient, layer: Layer, index: Int, context c: ExportContext) {
        let space = g.colorSpace ?? c.scene.colorSpace
        let pieces = needsPieces(g.stops, space: space)
        if c.target == .swiftUI {
            swiftUI(g, layer: layer, index: index, space: space, pieces: pieces, c)
        } else {
            coreAnimation(g, layer: layer, index: index, space: space, pieces: pieces, c)
        }
    }

    /// Whether SwiftUI's or Core Animation's own interpolation would differ from Welkin's:
    /// Welkin interpolates premultiplied in the layer's colour space, so a span needs sub-stops
    /// when that space is not sRGB, or when alpha and colour change together (where premultiplied
    /// and straight interpolation part).
    static func needsPieces(_ stops: [GradientStop], space: ColorSpace) -> Bool {
        guard stops.count > 1 else { return false }
        if space != .srgb { return true }
        return zip(stops, stops.dropFirst()).contains { a, b in
            b.location > a.location && a.color.a != b.color.a && (a.color.r != b.color.r || a.color.g != b.color.g || a.color.b != b.color.b)
        }
    }

    static func spaceName(_ space: ColorSpace) -> String {
        switch space {
        case .srgb: return "srgb"
        case .linearSRGB: return "linearSRGB"
        case .oklab: return "oklab"
        }
    }

    static func why(_ space: ColorSpace) -> String {
        space == .srgb
            ? "Welkin interpolates premultiplied, and here alpha and colour change together"
            : "Welkin interpolates this gradient in \(space == .oklab ? "OKLab" : "linear-light sRGB"), premultiplied"
    }

    /// `[(location, WelkinRGBA(…)), …]` lines of a stop list, for the runtime helpers.
    static func tupleLines(_ stops: [GradientStop], _ c: ExportContext) -> [String] {
        stops.map { "(\(c.n($0.location)), \(c.rgba($0.color)))," + c.hexComment($0.color) }
    }

    /// Writes `prefix[` stop tuples `]suffix`, the stops interpolated Welkin's way when needed.
    static func writeTuples(_ stops: [GradientStop], space: ColorSpace, pieces: Bool, prefix: String, suffix: String,
                            _ c: ExportContext, into s: inout SwiftSource) {
        if pieces {
            c.runtime.insert("gradientStops")
            s.block(prefix + "WelkinGradient.stops([", "], in: .\(spaceName(space)))" + suffix) { s in
                for l in tupleLines(stops, c) { s.line(l) }
            }
        } else {
            s.block(prefix + "[", "]" + suffix) { s in
                for l in tupleLines(stops, c) { s.line(l) }
            }
        }
    }

    // MARK: SwiftUI

    static func swiftUI(_ g: Gradient, layer: Layer, index: Int, space: ColorSpace, pieces: Bool, _ c: ExportContext) {
        if let a = g.animation, a.isAnimated { return GradientAnimationExport.swiftUI(g, a, layer: layer, index: index, space: space, c) }
        let kind = g.shape.typeName
        let view: String
        switch g.shape {
        case .linear: view = "LinearGradient"
        case .radial: view = "RadialGradient"
        case .angular: view = "AngularGradient"
        case .elliptical: view = "EllipticalGradient"; c.require(iOS: 15, macOS: 12)
        }
        c.addView { s in
            s.comment(c.label(layer, index: index, kind: kind) + " → SwiftUI's \(view), the same geometry.")
            if pieces {
                s.comment(why(space) + ": each span between stops is cut into pieces that carry Welkin's colours (WelkinGradient.stops).")
            }
            s.block("\(view)(", ")") { s in
                if pieces {
                    c.runtime.insert("swiftUIColor")
                    writeTuples(g.stops, space: space, pieces: true, prefix: "stops: welkinStops(", suffix: "),", c, into: &s)
                } else {
                    s.block("stops: [", "],") { s in
                        for stop in g.stops {
                            s.line("Gradient.Stop(color: \(c.color(stop.color)), location: \(c.n(stop.location))),"
                                   + c.hexComment(stop.color))
                        }
                    }
                }
                switch g.shape {
                case .linear(let start, let end):
                    s.line("startPoint: \(unitPoint(start, c)),")
                    s.line("endPoint: \(unitPoint(end, c))")
                case .radial(let center, let r0, let r1):
                    s.line("center: \(unitPoint(center, c)),")
                    s.line("startRadius: \(c.n(r0)),")
                    s.line("endRadius: \(c.n(r1))")
                case .angular(let center, let a0, let a1):
                    s.line("center: \(unitPoint(center, c)),")
                    s.line("startAngle: .degrees(\(c.n(a0))),")
                    s.line("endAngle: .degrees(\(c.n(a1)))")
                case .elliptical(let center, let f0, let f1):
                    s.line("center: \(unitPoint(center, c)),")
                    s.line("startRadiusFraction: \(c.n(f0)),")
                    s.line("endRadiusFraction: \(c.n(f1))")
                }
            }
            s.line(".opacity(\(c.n(layer.opacity)))")
        }
    }

    static func unitPoint(_ p: UnitPoint, _ c: ExportContext) -> String {
        "UnitPoint(x: \(c.n(p.x)), y: \(c.n(p.y)))"
    }

    // MARK: Core Animation

    static func coreAnimation(_ g: Gradient, layer: Layer, index: Int, space: ColorSpace, pieces: Bool, _ c: ExportContext) {
        let kind = g.shape.typeName
        let name = c.name(for: layer, index: index)
        c.members.line("private let \(name) = CAGradientLayer()")
        c.runtime.insert("cgColor")
        var s = SwiftSource()
        func setColors(_ stops: String) {
            s.line("\(name).colors = \(stops).map { $0.color.cgColor }")
            s.line("\(name).locations = \(stops).map { NSNumber(value: $0.location) }")
        }
        switch g.shape {
        case .linear(let start, let end):
            s.comment(c.label(layer, index: index, kind: kind) + " → an axial CAGradientLayer: the same geometry (isolines perpendicular on screen).")
            if pieces { s.comment(why(space) + ": each span is cut into pieces that carry Welkin's colours (WelkinGradient.stops).") }
            s.line("\(name).type = .axial")
            writeTuples(g.stops, space: space, pieces: pieces, prefix: "let \(name)Stops: [(location: Double, color: WelkinRGBA)] = ", suffix: "", c, into: &s)
            setColors("\(name)Stops")
            c.layout.line("\(name).frame = bounds")
            c.layout.line("\(name).startPoint = welkinUnitPoint(\(c.n(start.x)), \(c.n(start.y)))")
            c.layout.line("\(name).endPoint = welkinUnitPoint(\(c.n(end.x)), \(c.n(end.y)))")
        case .radial(let center, let r0, let r1), .elliptical(let center, let r0, let r1):
            let points: Bool
            if case .radial = g.shape { points = true } else { points = false }
            c.runtime.insert("caGradient")
            s.comment(c.label(layer, index: index, kind: kind) + " → a radial CAGradientLayer. Core Animation's radial gradient runs from its centre to the ellipse through endPoint, so the stops are moved to where their radius falls on that scale (welkinRadialStops), and endPoint is placed at the larger radius" + (points ? " in points, on each axis." : ", a fraction of the frame on each axis."))
            if pieces { s.comment(why(space) + ": each span is cut into pieces that carry Welkin's colours (WelkinGradient.stops).") }
            s.line("\(name).type = .radial")
            writeTuples(g.stops, space: space, pieces: pieces, prefix: "let \(name)Stops = welkinRadialStops(",
                        suffix: ", from: \(c.n(r0)), to: \(c.n(r1)))", c, into: &s)
            setColors("\(name)Stops")
            let outer = c.n(max(r0, r1))
            c.layout.line("\(name).frame = bounds")
            c.layout.line("\(name).startPoint = welkinUnitPoint(\(c.n(center.x)), \(c.n(center.y)))")
            if points {
                c.layout.line("\(name).endPoint = welkinUnitPoint(\(c.n(center.x)) + \(outer) / Double(bounds.width), \(c.n(center.y)) + \(outer) / Double(bounds.height))")
            } else {
                c.layout.line("\(name).endPoint = welkinUnitPoint(\(c.n(center.x)) + \(outer), \(c.n(center.y)) + \(outer))")
            }
        case .angular(let center, let a0, let a1):
            c.runtime.insert("caGradient")
            c.require(iOS: 14, macOS: 11)
            s.comment(c.label(layer, index: index, kind: kind) + " → a conic CAGradientLayer. Core Animation's conic gradient sweeps one whole turn from the direction of endPoint (as reported; Apple does not document it), so welkinConicStops places SwiftUI's span, last complete turn or filled wedge on that turn.")
            if pieces { s.comment(why(space) + ": each span is cut into pieces that carry Welkin's colours (WelkinGradient.stops).") }
            s.line("\(name).type = .conic")
            writeTuples(g.stops, space: space, pieces: pieces, prefix: "let \(name)Conic = welkinConicStops(",
                        suffix: ", startAngle: \(c.n(a0)), endAngle: \(c.n(a1)), sweepsClockwise: welkinYDown > 0)", c, into: &s)
            s.line("\(name)Angle = \(name)Conic.angle")
            setColors("\(name)Conic.stops")
            c.members.comment("The direction \(name)'s conic sweep starts from, degrees clockwise from +x on screen.", prefix: "/// ")
            c.members.line("private var \(name)Angle = 0.0")
            c.layout.line("\(name).frame = bounds")
            c.layout.line("\(name).startPoint = welkinUnitPoint(\(c.n(center.x)), \(c.n(center.y)))")
            c.layout.line("\(name).endPoint = welkinUnitPoint(\(c.n(center.x)) + cos(\(name)Angle * .pi / 180) * 100 / Double(bounds.width), \(c.n(center.y)) + sin(\(name)Angle * .pi / 180) * 100 / Double(bounds.height))")
        }
        s.line("\(name).opacity = \(c.n(layer.opacity))")
        s.line("addSublayer(\(name))")
        c.body.lines(s.text)
    }
}

extension Gradient: CodeExportable {
    func export(layer: Layer, index: Int, context: ExportContext) { GradientExport.export(self, layer: layer, index: index, context: context) }
}
