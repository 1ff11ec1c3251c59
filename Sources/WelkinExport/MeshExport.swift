// Mesh gradients: SwiftUI's MeshGradient (iOS 18, macOS 15), which Welkin's meshGradient models;
// the random walk, its spring and the colour keyframes run through TimelineView with Welkin's
// own maths (MeshRuntime.swift), so the vertices move exactly as in Welkin.

import WelkinCore

enum MeshExport {
    static func export(_ m: MeshGradient, layer: Layer, index: Int, context c: ExportContext) {
        guard c.swiftUIOnly(layer, index: index, "Core Animation has no mesh gradient; export with --swiftui for SwiftUI's MeshGradient (iOS 18, macOS 15)") else { return }
        let kind = layer.content.typeName
        c.require(iOS: 18, macOS: 15)
        let base = c.name(for: layer, index: index)
        let typeName = SwiftLiteral.typeName(c.scene.name, suffix: "View")
        let space = m.colorSpace ?? c.scene.colorSpace
        let animated = m.animation != nil || !m.colorKeyframes.isEmpty || m.pointAnimations != nil || m.colorAnimations != nil
        if animated { c.animates = true; c.require(iOS: 15, macOS: 12) }
        var notes: [String] = []
        // Animated points/colors items (keyframes or {from, to, animation}) run as Welkin's own values
        // at the scene time; the walk and colour keyframes, which Welkin starts from them, start from
        // their time-0 values instead.
        if m.pointAnimations != nil, m.animation != nil {
            notes.append(c.warn(index, kind, "approximated: the random walk steps from the vertices' time-0 values; Welkin steps from the animated vertices at each time"))
        }
        if m.colorAnimations != nil, !m.colorKeyframes.isEmpty {
            notes.append(c.warn(index, kind, "approximated: the colour keyframes start from the colours' time-0 values; Welkin starts them from the animated colours at each time"))
        }
        let spaceArgument: String
        switch space {
        case .srgb:
            spaceArgument = ".device"
        case .oklab:
            spaceArgument = ".perceptual"
            notes.append(c.warn(index, kind, "approximated: Welkin blends this mesh's colours in OKLab; SwiftUI's nearest is .perceptual, a perceptual space Apple does not name (the vertex colours are exact)"))
        case .linearSRGB:
            spaceArgument = ".device"
            notes.append(c.warn(index, kind, "approximated: Welkin blends this mesh's colours in linear-light sRGB; SwiftUI offers .device and .perceptual only, so .device is used (the vertex colours are exact)"))
        }

        // Static data: the vertices and colours as the scene gives them.
        let w = m.width
        var members = SwiftSource()
        let pointsAnimate = m.pointAnimations != nil && m.animation == nil
        let colorsAnimate = m.colorAnimations != nil && m.colorKeyframes.isEmpty
        switch m.vertices {
        case .points where pointsAnimate:
            break
        case .points(let points):
            let type = m.animation == nil ? "Float" : "Double"
            members.comment("\(c.label(layer, index: index, kind: kind)): the vertices, row by row from the top-left (unit points).", prefix: "/// ")
            members.block("private static let \(base)Points: [SIMD2<\(type)>] = [", "]") { s in
                for row in stride(from: 0, to: points.count, by: w) {
                    s.line(points[row..<min(row + w, points.count)].map { SwiftLiteral.pair($0) + "," }.joined(separator: " "))
                }
            }
        case .bezier(let points):
            members.comment("\(c.label(layer, index: index, kind: kind)): the vertices and their Bézier handles, row by row (unit points).", prefix: "/// ")
            members.block("private static let \(base)Points: [MeshGradient.BezierPoint] = [", "]") { s in
                for p in points {
                    s.line("MeshGradient.BezierPoint(position: \(SwiftLiteral.pair(p.position)), leadingControlPoint: \(SwiftLiteral.pair(p.leading)), "
                           + "topControlPoint: \(SwiftLiteral.pair(p.top)), trailingControlPoint: \(SwiftLiteral.pair(p.trailing)), "
                           + "bottomControlPoint: \(SwiftLiteral.pair(p.bottom))),")
                }
            }
            if m.animation != nil {
                members.comment("The vertices where the walk starts (the handles move with them).", prefix: "/// ")
                members.block("private static let \(base)Start: [SIMD2<Double>] = [", "]") { s in
                    for row in stride(from: 0, to: points.count, by: w) {
                        s.line(points[row..<min(row + w, points.count)].map { SwiftLiteral.pair($0.position) + "," }.joined(separator: " "))
                    }
                }
            }
        }
        if colorsAnimate {
            // The colours come from their animations below.
        } else if m.colorKeyframes.isEmpty {
            members.comment("The vertex colours, row by row.", prefix: "/// ")
            members.block("private static let \(base)Colors: [Color] = [", "]") { s in
                for color in m.colors { s.line(c.color(color) + "," + c.hexComment(color)) }
            }
        } else {
            c.runtime.insert("meshColors")
            c.runtime.insert("swiftUIColor")
            members.comment("The vertex colours at time 0 and at each keyframe, blended as Welkin does (premultiplied, \(GradientExport.spaceName(space))).", prefix: "/// ")
            members.block("private static let \(base)Colors = WelkinMeshColors(", ")") { s in
                colorArguments(m, space: space, c, into: &s)
            }
        }
        if let animations = m.pointAnimations, pointsAnimate {
            c.runtime.insert("transition")
            members.comment("\(c.label(layer, index: index, kind: kind)): the vertices over time, row by row (unit points), each a constant or Welkin's animation.", prefix: "/// ")
            members.block("private static let \(base)PointAnimations: [WelkinAnimated<SIMD2<Double>>] = [", "]") { s in
                for a in animations { s.line(AnimationExport.runtimeLiteral(a, SwiftLiteral.pair) + ",") }
            }
        }
        if let animations = m.colorAnimations, colorsAnimate {
            c.runtime.insert("transition")
            c.runtime.insert("colorMix")
            c.runtime.insert("swiftUIColor")
            members.comment("The vertex colours over time, row by row: each a constant or Welkin's animation, moving in \(GradientExport.spaceName(space)).", prefix: "/// ")
            members.block("private static let \(base)ColorAnimations: [WelkinAnimated<WelkinRGBA>] = [", "]") { s in
                for a in animations { s.line(AnimationExport.runtimeLiteral(a) { c.rgba($0) } + ",") }
            }
        }
        if let walk = m.animation {
            c.runtime.insert("randomWalk")
            let start = { () -> String in
                if case .bezier = m.vertices { return "\(typeName).\(base)Start" }
                return "\(typeName).\(base)Points"
            }()
            members.comment("Every \(c.n(walk.interval)) s each listed vertex steps ±\(c.n(walk.step)) within its range, eased by spring(duration: \(c.n(walk.spring.duration)), bounce: \(c.n(walk.spring.bounce))); signs come from the scene seed.", prefix: "/// ")
            members.block("@State private var \(base)Walk = WelkinRandomWalk(", ")") { s in
                walkArguments(walk, seed: c.scene.seed, start: start, c, into: &s)
            }
            if case .bezier = m.vertices {
                members.comment("The Bézier vertices with the walk applied: handles travel with their vertex.", prefix: "/// ")
                members.block("private static func \(base)Moved(_ moved: [SIMD2<Double>]) -> [MeshGradient.BezierPoint] {") { s in
                    s.block("zip(\(base)Points, zip(moved, \(base)Start)).map { p, m in", "}") { s in
                        s.line("let d = SIMD2<Float>(m.0 - m.1)")
                        s.line("return MeshGradient.BezierPoint(position: p.position + d, leadingControlPoint: p.leadingControlPoint + d,")
                        s.line("                                topControlPoint: p.topControlPoint + d, trailingControlPoint: p.trailingControlPoint + d,")
                        s.line("                                bottomControlPoint: p.bottomControlPoint + d)")
                    }
                }
            }
        }
        if !c.members.text.isEmpty { c.members.line() }
        c.members.lines(members.text)

        // The view.
        var pointsArgument: String
        switch (m.vertices, m.animation != nil) {
        case (.points, false): pointsArgument = "points: Self.\(base)Points"
        case (.points, true): pointsArgument = "points: \(base)Walk.positions(at: t).map { SIMD2<Float>($0) }"
        case (.bezier, false): pointsArgument = "bezierPoints: Self.\(base)Points"
        case (.bezier, true): pointsArgument = "bezierPoints: Self.\(base)Moved(\(base)Walk.positions(at: t))"
        }
        if pointsAnimate {
            pointsArgument = "points: Self.\(base)PointAnimations.map { SIMD2<Float>($0.value(at: t, mix: welkinMix)) }"
        }
        var colorsArgument = m.colorKeyframes.isEmpty ? "colors: Self.\(base)Colors" : "colors: Self.\(base)Colors.at(t).map { $0.color }"
        if colorsAnimate {
            colorsArgument = "colors: Self.\(base)ColorAnimations.map { $0.value(at: t) { welkinMix($0, $1, $2, in: .\(GradientExport.spaceName(space))) }.color }"
        }
        c.addView { s in
            var what = "SwiftUI's MeshGradient, \(m.width) × \(m.height) vertices"
            if let walk = m.animation { what += ", walking every \(c.n(walk.interval)) s" }
            if pointsAnimate { what += ", its vertices animated" }
            if colorsAnimate { what += ", its colours animated" }
            if !m.colorKeyframes.isEmpty { what += ", colours through \(m.colorKeyframes.count) keyframe\(m.colorKeyframes.count == 1 ? "" : "s")" }
            s.comment(c.label(layer, index: index, kind: kind) + " → " + what + ".")
            for note in notes { s.comment(note) }
            func mesh(_ s: inout SwiftSource) {
                s.block("MeshGradient(", ")") { s in
                    s.line("width: \(m.width), height: \(m.height),")
                    s.line(pointsArgument + ",")
                    s.line(colorsArgument + ",")
                    s.line("background: \(c.color(m.background)),")
                    s.line("smoothsColors: \(m.smoothsColors),")
                    s.line("colorSpace: \(spaceArgument)")
                }
            }
            if animated {
                s.block("TimelineView(.animation) { context in", "}") { s in
                    s.line("let t = context.date.timeIntervalSince(start)")
                    mesh(&s)
                }
            } else {
                mesh(&s)
            }
            s.line(".opacity(\(c.n(layer.opacity)))")
        }
    }

    /// The arguments of `WelkinRandomWalk(…)`: Welkin's walk, its spring, the seed and the start.
    static func walkArguments(_ walk: MeshRandomWalk, seed: UInt64, start: String, _ c: ExportContext, into s: inout SwiftSource) {
        s.line("interval: \(c.n(walk.interval)), step: \(c.n(walk.step)),")
        s.block("ranges: [", "],") { s in
            for r in walk.ranges {
                func range(_ r: ClosedRange<Double>?) -> String { r.map { "\(c.n($0.lowerBound))...\(c.n($0.upperBound))" } ?? "nil" }
                s.line("WelkinRandomWalk.Range(index: \(r.index), x: \(range(r.x)), y: \(range(r.y))),")
            }
        }
        s.line("spring: WelkinSpring(duration: \(c.n(walk.spring.duration)), bounce: \(c.n(walk.spring.bounce))),")
        s.line("seed: \(seed), start: \(start)")
    }

    /// The arguments of `WelkinMeshColors(…)`: the colours at time 0, the keyframes and the space.
    static func colorArguments(_ m: MeshGradient, space: ColorSpace, _ c: ExportContext, into s: inout SwiftSource) {
        c.runtime.insert("meshColors")
        s.block("colors: [", "],") { s in
            for color in m.colors { s.line(c.rgba(color) + "," + c.hexComment(color)) }
        }
        s.block("keyframes: [", "],") { s in
            for key in m.colorKeyframes {
                s.block("WelkinMeshColors.Keyframe(time: \(c.n(key.time)), colors: [", "]),") { s in
                    for color in key.colors { s.line(c.rgba(color) + "," + c.hexComment(color)) }
                }
            }
        }
        s.line("space: .\(GradientExport.spaceName(space))")
    }
}

extension MeshGradient: CodeExportable {
    func export(layer: Layer, index: Int, context: ExportContext) { MeshExport.export(self, layer: layer, index: index, context: context) }
}
