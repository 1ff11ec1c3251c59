// Code export of animated gradients (SwiftUI): the stops and geometry as Welkin's own animated
// values (WelkinAnimated: keyframes and transitions, twins of WelkinCore's), evaluated at the scene
// time in a TimelineView and handed to the same gradient view. SwiftUI does not document animating
// a gradient's stops through state, so the runtime twin draws exactly Welkin's values instead.

import WelkinCore

enum GradientAnimationExport {
    static func swiftUI(_ g: Gradient, _ a: GradientAnimation, layer: Layer, index: Int, space: ColorSpace, _ c: ExportContext) {
        let kind = g.shape.typeName
        let name = c.name(for: layer, index: index, suffix: "Stops")
        c.runtime.insert("transition")
        c.runtime.insert("swiftUIColor")
        c.animates = true
        c.require(iOS: 15, macOS: 12)
        // Welkin interpolates premultiplied in the layer's colour space: pieces as for a still gradient.
        // (a translucent colour at any time may meet a change of colour).
        let pieces = space != .srgb || a.stops.contains { $0.color.namedValues.contains { $0.a < 1 } }
        c.members.comment("\(c.label(layer, index: index, kind: kind)): the stops, each colour and location a constant or Welkin's animation.", prefix: "/// ")
        c.members.block("private static let \(name): [(color: WelkinAnimated<WelkinRGBA>, location: WelkinAnimated<Double>)] = [", "]") { s in
            for stop in a.stops {
                s.line("(\(AnimationExport.runtimeLiteral(stop.color) { c.rgba($0) }), \(AnimationExport.runtimeLiteral(stop.location, SwiftLiteral.number))),")
            }
        }
        func point(_ k: Int) -> String {
            "UnitPoint(x: \(name)Point\(k).x, y: \(name)Point\(k).y)"
        }
        for (k, p) in a.points.enumerated() {
            c.members.line("private static let \(name)Point\(k): WelkinAnimated<SIMD2<Double>> = \(AnimationExport.runtimeLiteral(p, SwiftLiteral.pair))")
        }
        for (k, v) in a.numbers.enumerated() {
            c.members.line("private static let \(name)Number\(k): WelkinAnimated<Double> = \(AnimationExport.runtimeLiteral(v, SwiftLiteral.number))")
        }
        let view: String
        switch g.shape {
        case .linear: view = "LinearGradient"
        case .radial: view = "RadialGradient"
        case .angular: view = "AngularGradient"
        case .elliptical: view = "EllipticalGradient"
        }
        c.addView { s in
            s.comment(c.label(layer, index: index, kind: kind) + " → SwiftUI's \(view), its stops and geometry Welkin's animated values at the scene time.")
            s.block("TimelineView(.animation) { context in") { s in
                s.line("let t = context.date.timeIntervalSince(start)")
                let stops = "welkinStops(Self.\(name), at: t)"
                for k in a.points.indices { s.line("let \(name)Point\(k) = Self.\(name)Point\(k).value(at: t, mix: welkinMix)") }
                for k in a.numbers.indices { s.line("let \(name)Number\(k) = Self.\(name)Number\(k).value(at: t, mix: welkinMix)") }
                s.block("\(view)(", ")") { s in
                    if pieces {
                        c.runtime.insert("gradientStops")
                        s.line("stops: welkinStops(WelkinGradient.stops(\(stops), in: .\(GradientExport.spaceName(space)))),")
                    } else {
                        s.line("stops: welkinStops(\(stops)),")
                    }
                    switch g.shape {
                    case .linear:
                        s.line("startPoint: \(point(0)),")
                        s.line("endPoint: \(point(1))")
                    case .radial:
                        s.line("center: \(point(0)),")
                        s.line("startRadius: max(0, \(name)Number0),")
                        s.line("endRadius: max(0, \(name)Number1)")
                    case .angular:
                        s.line("center: \(point(0)),")
                        s.line("startAngle: .degrees(\(name)Number0),")
                        s.line("endAngle: .degrees(\(name)Number1)")
                    case .elliptical:
                        s.line("center: \(point(0)),")
                        s.line("startRadiusFraction: max(0, \(name)Number0),")
                        s.line("endRadiusFraction: max(0, \(name)Number1)")
                    }
                }
            }
            s.line(".opacity(\(c.n(layer.opacity)))")
        }
    }
}
