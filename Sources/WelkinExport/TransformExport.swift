// What Welkin applies to a layer after the kind has drawn it, as code: the transform (SwiftUI's
// .scaleEffect(x:y:anchor:), .rotationEffect(_:anchor:), .offset(x:y:), in that order), the shadow
// (.shadow(color:radius:x:y:)) and the opacity, each animated when the scene animates it
// (AnimationExport). In Core Animation: the layer's anchorPoint, key paths under `transform`,
// shadowColor/Radius/Offset/Opacity and opacity, with their animations.

import WelkinCore

enum LayerModifiers {
    /// SwiftUI modifier lines for `layer`, and whether they read the scene time. `anchorInFrame`:
    /// the transform's anchor is a unit point of the view's own frame (a text's box of lines, the
    /// scene's frame for a full-frame view), as in Welkin.
    static func swiftUI(_ layer: Layer, index: Int, _ c: ExportContext, compositing: Bool = false) -> (lines: [String], readsTime: Bool) {
        let kind = layer.content.typeName
        var lines: [String] = []
        var readsTime = false
        func read<V>(_ a: Animated<V>, _ k: AnimationExport.ValueKind<V>, _ suffix: String, _ what: String) -> String {
            let e = AnimationExport.swiftUI(a, k, name: c.name(for: layer, index: index, suffix: suffix), what: what, index: index, layerKind: kind, c)
            readsTime = readsTime || e.readsTime
            return e.code
        }
        /// `x` and `y` of an animated point: numbers for a constant.
        func pair(_ a: Animated<SIMD2<Double>>, _ suffix: String, _ what: String) -> (String, String) {
            if case .constant(let v) = a { return (c.n(v.x), c.n(v.y)) }
            let e = read(a, AnimationExport.point(c), suffix, what)
            return ("\(e).x", "\(e).y")
        }
        if let t = layer.transform {
            let anchor = "UnitPoint(x: \(c.n(t.anchor.x)), y: \(c.n(t.anchor.y)))"
            if t.scale != .constant(SIMD2(1, 1)) {
                let (x, y) = pair(t.scale, "Scale", "the transform's scale")
                lines.append(".scaleEffect(x: \(x), y: \(y), anchor: \(anchor))")
            }
            if t.rotation != .constant(0) {
                lines.append(".rotationEffect(.degrees(\(read(t.rotation, AnimationExport.number(c), "Rotation", "the transform's rotation (degrees clockwise)"))), anchor: \(anchor))")
            }
            if t.offset != .constant(.zero) {
                let (x, y) = pair(t.offset, "Offset", "the transform's offset (points)")
                lines.append(".offset(x: \(x), y: \(y))")
            }
        }
        if let shadow = layer.shadow {
            var color = read(shadow.color, AnimationExport.color(c), "ShadowColor", "the shadow's colour")
            if shadow.opacity != .constant(1) {
                color += ".opacity(\(read(shadow.opacity, AnimationExport.number(c), "ShadowOpacity", "the shadow's opacity")))"
            }
            let radius = read(shadow.radius, AnimationExport.number(c), "ShadowRadius", "the shadow's radius (points)")
            if compositing { lines.append(".compositingGroup()") }
            lines.append(".shadow(color: \(color), radius: \(radius), x: \(c.n(shadow.offset.x)), y: \(c.n(shadow.offset.y)))")
        }
        let opacity = layer.opacityAnimation.map { read($0, AnimationExport.number(c), "Opacity", "the layer's opacity") } ?? c.n(layer.opacity)
        lines.append(".opacity(\(opacity))")
        return (lines, readsTime)
    }

    /// A kind's finished SwiftUI view with Welkin's modifiers: its closing `.opacity(…)` replaced by
    /// the transform, shadow and opacity, and the whole in a TimelineView when one reads the time.
    static func finishSwiftUI(_ view: String, _ layer: Layer, index: Int, _ c: ExportContext) -> String {
        let (lines, readsTime) = swiftUI(layer, index: index, c, compositing: layer.content is GroupLayer)
        var body = view.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while body.last == "" { body.removeLast() }
        if let last = body.last, last.hasPrefix(".opacity(") { body.removeLast() }
        body += lines
        return wrapInTimeline(body.joined(separator: "\n"), readsTime: readsTime, c)
    }

    /// `view` in a `TimelineView(.animation)` that defines the scene time `t`, when `readsTime`.
    static func wrapInTimeline(_ view: String, readsTime: Bool, _ c: ExportContext) -> String {
        guard readsTime else { return view }
        c.animates = true
        c.require(iOS: 15, macOS: 12)
        var s = SwiftSource()
        s.block("TimelineView(.animation) { context in") { s in
            s.line("let t = context.date.timeIntervalSince(start)")
            s.lines(view)
        }
        return s.text
    }

    // MARK: Core Animation

    /// Lines for `setUp()` that give the CALayer `name` the layer's transform, shadow and animated
    /// opacity (its constant opacity the kind has set).
    static func coreAnimation(_ layer: Layer, index: Int, name: String, _ c: ExportContext) -> [String] {
        let kind = layer.content.typeName
        let n = SwiftLiteral.number
        var s: [String] = []
        func number(_ v: Double) -> String { n(v) }
        func apply<V>(_ a: Animated<V>, _ keyPath: String, _ literal: @escaping (V) -> String) {
            if case .constant(let v) = a {
                s.append("\(name).setValue(\(literal(v)), forKeyPath: \"\(keyPath)\")")
            } else {
                s += AnimationExport.coreAnimation(a, layer: name, keyPath: keyPath, literal: literal, c)
            }
        }
        if let t = layer.transform {
            s.append("// The transform about its anchor (\(n(t.anchor.x)), \(n(t.anchor.y))) of the frame: scale, then rotation (clockwise on screen), then offset.")
            s.append("\(name).anchorPoint = welkinUnitPoint(\(n(t.anchor.x)), \(n(t.anchor.y)))")
            func component(_ a: Animated<SIMD2<Double>>, _ x: Bool) -> Animated<Double> {
                switch a {
                case .constant(let v): return .constant(x ? v.x : v.y)
                case .keyframes(let k): return .keyframes(Keyframes(times: k.times, values: k.values.map { x ? $0.x : $0.y }, repeats: k.repeats, easing: k.easing, segmentEasings: k.segmentEasings))
                case .transition(let tr): return .transition(Transition(from: x ? tr.from.x : tr.from.y, to: x ? tr.to.x : tr.to.y, timing: tr.timing, repetition: tr.repetition, autoreverses: tr.autoreverses, delay: tr.delay, speed: tr.speed))
                }
            }
            if t.scale != .constant(SIMD2(1, 1)) {
                apply(component(t.scale, true), "transform.scale.x", number)
                apply(component(t.scale, false), "transform.scale.y", number)
            }
            if t.rotation != .constant(0) {
                apply(t.rotation, "transform.rotation.z") { "\(n($0)) * Double.pi / 180 * Double(welkinYDown)" }
            }
            if t.offset != .constant(.zero) {
                apply(component(t.offset, true), "transform.translation.x", number)
                apply(component(t.offset, false), "transform.translation.y") { "\(n($0)) * Double(welkinYDown)" }
            }
        }
        if let shadow = layer.shadow {
            c.warn(index, kind, "approximated: the shadow: Core Animation does not document its shadowRadius blur; Welkin's is SwiftUI's radius, a Gaussian of σ = radius / 2")
            s.append("// The shadow: its colour, radius (points), offset (points, y down) and opacity.")
            apply(shadow.color, "shadowColor") { c.cgColor($0) }
            apply(shadow.radius, "shadowRadius", number)
            s.append("\(name).shadowOffset = CGSize(width: \(n(shadow.offset.x)), height: \(n(shadow.offset.y)) * welkinYDown)")
            apply(shadow.opacity, "shadowOpacity", number)
        }
        if let opacity = layer.opacityAnimation {
            s += AnimationExport.coreAnimation(opacity, layer: name, keyPath: "opacity", literal: number, c)
        }
        return s
    }
}
