// Exported animations: every `withAnimation` call and Core Animation spring, read back with
// Welkin's mapping (Timing.swift), is the scene's animation exactly; the keyframes and clock the
// code carries (WelkinKeyframes, WelkinClock) give WelkinCore's numbers and strings.

import Foundation
import XCTest
@testable import WelkinExport
@testable import WelkinCore

final class AnimationExportTests: XCTestCase {
    /// Every animated property of a scene, its groups' layers and masks included.
    struct Properties {
        var numbers: [(String, Animated<Double>)] = []
        var points: [(String, Animated<SIMD2<Double>>)] = []
        var colors: [(String, Animated<RGBA>)] = []

        init(_ scene: Scene) {
            for (i, layer) in scene.layers.enumerated() { add(layer, "layers[\(i)]") }
        }

        mutating func add(_ layer: Layer, _ at: String) {
            if let o = layer.opacityAnimation { numbers.append(("\(at).opacity", o)) }
            if let t = layer.transform {
                points += [("\(at).transform.offset", t.offset), ("\(at).transform.scale", t.scale)]
                numbers.append(("\(at).transform.rotation", t.rotation))
            }
            if let s = layer.shadow {
                colors.append(("\(at).shadow.color", s.color))
                numbers += [("\(at).shadow.radius", s.radius), ("\(at).shadow.opacity", s.opacity)]
            }
            if let text = layer.content as? TextLayer { colors.append(("\(at).color", text.color)) }
            if let g = layer.content as? Gradient, let a = g.animation {
                for (k, stop) in a.stops.enumerated() {
                    colors.append(("\(at).stops[\(k)].color", stop.color)); numbers.append(("\(at).stops[\(k)].location", stop.location))
                }
                points += a.points.enumerated().map { ("\(at).points[\($0.offset)]", $0.element) }
                numbers += a.numbers.enumerated().map { ("\(at).numbers[\($0.offset)]", $0.element) }
            }
            if let group = layer.content as? GroupLayer {
                for (k, child) in group.layers.enumerated() { add(child, "\(at).layers[\(k)]") }
                if let mask = group.mask { add(mask, "\(at).mask") }
            }
        }

        /// The transitions' timing and repetition, as comparable values.
        var transitions: [(String, Timing, Repetition, Bool, Double, Double)] {
            func t<V>(_ items: [(String, Animated<V>)]) -> [(String, Timing, Repetition, Bool, Double, Double)] {
                items.compactMap { label, a in
                    guard case .transition(let x) = a else { return nil }
                    return (label, x.timing, x.repetition, x.autoreverses, x.delay, x.speed)
                }
            }
            return t(numbers) + t(points) + t(colors)
        }
    }

    static var scenes: [(String, Scene)] {
        get throws { try CodeExportTests.exportPaths.map { (URL(fileURLWithPath: $0).lastPathComponent, try SceneLoader.load(path: $0)) } }
    }

    // MARK: The calls carry the scene's numbers

    /// A call `name(label: value, …)` read from `text` at `i`: its name, arguments and where it ends.
    static func call(_ text: Substring) -> (name: String, arguments: [(String?, String)], rest: Substring)? {
        guard text.first == ".", let open = text.firstIndex(of: "(") else { return nil }
        let name = String(text[text.index(after: text.startIndex)..<open])
        var depth = 0
        var end = open
        for j in text[open...].indices {
            if text[j] == "(" { depth += 1 } else if text[j] == ")" { depth -= 1; if depth == 0 { end = j; break } }
        }
        let inside = text[text.index(after: open)..<end]
        let arguments = inside.isEmpty ? [] : inside.components(separatedBy: ", ").map { part -> (String?, String) in
            if let colon = part.range(of: ": ") { return (String(part[..<colon.lowerBound]), String(part[colon.upperBound...])) }
            return (nil, part)
        }
        return (name, arguments, text[text.index(after: end)...])
    }

    /// A SwiftUI animation expression read back as Welkin's timing, repetition, autoreverse, delay and speed.
    static func parse(_ animation: String) throws -> (Timing, Repetition, Bool, Double, Double) {
        var rest = Substring(animation)
        guard let base = call(rest) else { throw TestFailure("unreadable: \(animation)") }
        rest = base.rest
        func number(_ label: String?) -> Double {
            Double(base.arguments.first { $0.0 == label }?.1 ?? "nan")!
        }
        let timing: Timing
        switch (base.name, base.arguments.map(\.0)) {
        case ("linear", _): timing = .linear(number("duration"))
        case ("easeIn", _): timing = .easeIn(number("duration"))
        case ("easeOut", _): timing = .easeOut(number("duration"))
        case ("easeInOut", _): timing = .easeInOut(number("duration"))
        case ("timingCurve", _):
            let p = base.arguments.prefix(4).map { Double($0.1)! }
            timing = .curve(x1: p[0], y1: p[1], x2: p[2], y2: p[3], duration: number("duration"))
        case ("spring", ["duration", "bounce"]): timing = .spring(duration: number("duration"), bounce: number("bounce"))
        case ("spring", ["response", "dampingFraction"]): timing = .spring(response: number("response"), dampingFraction: number("dampingFraction"))
        case ("interpolatingSpring", ["duration", "bounce", "initialVelocity"]):
            timing = .spring(duration: number("duration"), bounce: number("bounce"), velocity: number("initialVelocity"))
        case ("interpolatingSpring", ["mass", "stiffness", "damping", "initialVelocity"]):
            timing = .spring(mass: number("mass"), stiffness: number("stiffness"), damping: number("damping"), initialVelocity: number("initialVelocity"))
        default: throw TestFailure("unknown animation \(base.name)")
        }
        var repetition = Repetition.once, autoreverses = false, delay = 0.0, speed = 1.0
        while let m = call(rest) {
            rest = m.rest
            switch m.name {
            case "speed": speed = Double(m.arguments[0].1)!
            case "delay": delay = Double(m.arguments[0].1)!
            case "repeatForever": repetition = .forever; autoreverses = m.arguments[0].1 == "true"
            case "repeatCount":
                let n = Int(m.arguments[0].1)!
                autoreverses = m.arguments[1].1 == "true"
                repetition = n == 2 && autoreverses ? .once : .count(n)
            default: XCTFail("unexpected modifier \(m.name) in \(animation)")
            }
        }
        // A single autoreversed pass is written as SwiftUI's repeatCount(2, autoreverses: true).
        return (timing, repetition, autoreverses, delay, speed)
    }

    /// Every transition of every example and fixture is one `withAnimation(…)` in the SwiftUI code
    /// whose animation, read back with Welkin's mapping, is exactly the scene's (Timing ==, which
    /// compares ω₀, ζ, v₀ and the duration bit for bit), and one Core Animation animation whose
    /// control points or spring constants give the same curve or the same ω₀ and ζ.
    func testEveryCallCarriesTheScenesAnimationExactly() throws {
        var checked = 0
        for (file, scene) in try Self.scenes {
            // A gradient's animated stops and geometry are Welkin's own values at the scene time (GradientAnimationExport).
            let expected = Properties(scene).transitions.filter { !["stops[", "points[", "numbers["].contains(where: $0.0.contains) }
            let source = CodeExport.generate(scene, target: .swiftUI).source
            let calls = source.components(separatedBy: "withAnimation(").dropFirst().map { text -> String in
                // The animation runs to the `)` before ` { name = … }`.
                String(text[..<text.range(of: ") { ")!.lowerBound])
            }
            XCTAssertEqual(calls.count, expected.count, "\(file): \(calls)")
            var parsed = try calls.map(Self.parse)
            for (label, timing, repetition, autoreverses, delay, speed) in expected {
                // Welkin's single autoreversed pass reads back as two counted passes (the same motion).
                let reps = repetition == .count(2) && autoreverses ? Repetition.once : repetition
                guard let k = parsed.firstIndex(where: { $0.0 == timing && $0.1 == reps && $0.2 == autoreverses && $0.3 == delay && $0.4 == speed }) else {
                    XCTFail("\(file) \(label): no withAnimation carries \(timing) \(repetition) autoreverses \(autoreverses) delay \(delay) speed \(speed)\n\(calls)")
                    continue
                }
                parsed.remove(at: k)
                checked += 1
            }

            // Core Animation: each spring's constants give the scene's ω₀ and ζ; each curve's control points are in the code.
            let ca = CodeExport.generate(scene, target: .coreAnimation).source
            var drawn = scene
            drawn.layers = scene.layers.filter { !($0.content is TextLayer || $0.content is GroupLayer) }   // Core Animation leaves them out
            for (label, timing, _, _, _, _) in Properties(drawn).transitions where !["stops[", "points[", "numbers["].contains(where: label.contains) {
                switch timing {
                case .curve(let x1, let y1, let x2, let y2, _):
                    let points = "CAMediaTimingFunction(controlPoints: \([x1, y1, x2, y2].map(SwiftLiteral.number).joined(separator: ", ")))"
                    if ca.contains("CABasicAnimation") { XCTAssertTrue(ca.contains(points), "\(file) \(label): \(points)") }
                case .spring(let omega, let zeta, let v, _):
                    let springs = ca.components(separatedBy: " = CASpringAnimation(").dropFirst().map { block -> (Double, Double, Double) in
                        func value(_ key: String) -> Double {
                            let line = block.components(separatedBy: "\n").first { $0.contains(".\(key) = ") }!
                            return Double(line.components(separatedBy: " = ")[1])!
                        }
                        return (value("stiffness"), value("damping"), value("initialVelocity"))
                    }
                    guard !springs.isEmpty else { continue }   // the layer is not exported for Core Animation
                    XCTAssertTrue(springs.contains { k, c, velocity in
                        guard case .spring(let w, let z, let u, _) = Timing.spring(mass: 1, stiffness: k, damping: c, initialVelocity: velocity) else { return false }
                        // ζ = c / (2√k) is a rounded quotient: not every ζ has a c that gives it back
                        // exactly (0.45 at ω₀ = 2π / 0.6 has none); the nearest is within 2 ulp.
                        return w == omega && abs(z - zeta) <= 2 * zeta.ulp && u == v
                    }, "\(file) \(label): no CASpringAnimation gives ω₀ \(omega), ζ \(zeta)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 12)
    }

    func testSeed001sSpringsAreWrittenAsSwiftUIsCalls() throws {
        let path = SwiftCompiler.repository.appendingPathComponent("Scenes/mesh-text.json").path
        let output = CodeExport.generate(try SceneLoader.load(path: path), target: .swiftUI)
        XCTAssertTrue(output.source.contains("withAnimation(.spring(duration: 0.66, bounce: 1.0).repeatForever(autoreverses: true)) { layer1Scale = SIMD2(1.1, 1.1) }"), output.source)
        XCTAssertTrue(output.source.contains("withAnimation(.easeInOut(duration: 0.5).repeatForever(autoreverses: true)) { maskedTextShadowColor = "), output.source)
        XCTAssertTrue(output.source.contains(".scaleEffect(x: layer1Scale.x, y: layer1Scale.y, anchor: UnitPoint(x: 0.5, y: 0.5))"))
        XCTAssertTrue(output.source.contains(".rotationEffect(.degrees(layer1Rotation), anchor: UnitPoint(x: 0.5, y: 0.5))"))
        XCTAssertFalse(output.warnings.contains { $0.message.hasPrefix("not exported") }, "\(output.warnings)")
    }

    // MARK: Keyframes and clocks: twins of WelkinCore

    /// WelkinKeyframes at 24 times (before, during and after, repeating) for every keyframed property
    /// of the examples and fixtures and a few more; WelkinAnimated at 27 times for every animated value
    /// (transitions of every timing and repetition among them) and every animated gradient's stops;
    /// and WelkinClock at 26 times for every clock label
    /// (text-clock's dated sky among them): the same numbers as WelkinCore within 1e-9, the same strings.
    func testAnimatedValuesAndClocksMatchWelkinCore() throws {
        var setup: [String] = []
        var checks: [(key: String, driver: String, expected: [Double])] = []
        /// One driver loop per value: `expression` (a [Double] of `t`) printed at each of `at`.
        var loops: [(key: String, at: [Double], expression: String)] = []
        func check(_ key: String, at: [Double], _ expression: String, _ expected: (Double) -> [Double]) {
            loops.append((key, at, expression))
            for t in at { checks.append(("\(key) at \(t)", "", expected(t))) }
        }
        let times = (0..<24).map { -0.5 + Double($0) * 0.41 }
        let c = ExportContext(scene: Scene(), target: .swiftUI)
        func add<V>(_ key: String, _ k: Keyframes<V>, type: String, literal: (V) -> String, expected: (Double) -> [Double], components: String) {
            let name = "k\(setup.count)"
            var s = SwiftSource()
            s.block("let \(name) = WelkinKeyframes<\(type)>(", ")") { s in AnimationExport.keyframeArguments(k, literal: literal, into: &s) }
            setup.append(s.text)
            check(key, at: times, "{ let v = \(name).value(at: t, mix: welkinMix); return \(components) }()", expected)
        }
        var count = 0
        var props: [Properties] = try Self.scenes.map { Properties($0.1) }
        var extra = Properties(Scene())
        extra.numbers.append(("segments", .keyframes(Keyframes(times: [0.2, 1, 1.7, 3], values: [0, 10, -4, 2], repeats: true, easing: .easeOut(1),
                                                                   segmentEasings: [nil, .curve(x1: 0.3, y1: -0.4, x2: 0.6, y2: 1.5, duration: 1), .linear(1)]))))
        extra.points.append(("points", .keyframes(Keyframes(times: [1, 2], values: [SIMD2(0, 0), SIMD2(3, -7)], easing: .easeInOut(1)))))
        props.append(extra)
        for p in props {
            for (label, a) in p.numbers {
                guard case .keyframes(let k) = a else { continue }
                add(label + " \(count)", k, type: "Double", literal: SwiftLiteral.number, expected: { [a.value(at: $0)] }, components: "[v]")
                count += 1
            }
            for (label, a) in p.points {
                guard case .keyframes(let k) = a else { continue }
                add(label + " \(count)", k, type: "SIMD2<Double>", literal: SwiftLiteral.pair, expected: { let v = a.value(at: $0); return [v.x, v.y] }, components: "[v.x, v.y]")
                count += 1
            }
            for (label, a) in p.colors {
                guard case .keyframes(let k) = a else { continue }
                add(label + " \(count)", k, type: "WelkinRGBA", literal: { c.rgba($0) }, expected: { let v = a.value(at: $0); return [v.r, v.g, v.b, v.a] }, components: "[v.r, v.g, v.b, v.a]")
                // In a scene whose colorSpace is linear light or OKLab, the export mixes there as Welkin does.
                for space in [ColorSpace.linearSRGB, .oklab] {
                    let name = "k\(setup.count)"
                    var s = SwiftSource()
                    s.block("let \(name) = WelkinKeyframes<WelkinRGBA>(", ")") { s in AnimationExport.keyframeArguments(k, literal: { c.rgba($0) }, into: &s) }
                    setup.append(s.text)
                    check(label + " \(count) in \(space)", at: times,
                          "{ let v = \(name).value(at: t) { welkinMix($0, $1, $2, in: .\(GradientExport.spaceName(space))) }; return [v.r, v.g, v.b, v.a] }()") { t in
                        let v = a.value(at: t, in: space)
                        return [v.r, v.g, v.b, v.a]
                    }
                }
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 7)

        // WelkinAnimated (WelkinTransition, WelkinTiming): every animated property, and transitions of
        // every timing and repetition.
        var animatedCount = 0
        func addAnimated<V>(_ key: String, _ a: Animated<V>, type: String, literal: (V) -> String, expected: (Double) -> [Double], components: String) {
            let name = "a\(setup.count)"
            setup.append("let \(name): WelkinAnimated<\(type)> = \(AnimationExport.runtimeLiteral(a, literal))")
            check(key, at: times + [7.9, 12.25, 100.5], "{ let v = \(name).value(at: t, mix: welkinMix); return \(components) }()", expected)
            animatedCount += 1
        }
        let timings: [Timing] = [.linear(0.7), .easeIn(), .easeOut(2), .easeInOut(0.5), .curve(x1: 0.1, y1: 0.9, x2: 0.3, y2: -0.6, duration: 1.1),
                                 .spring(duration: 0.66, bounce: 15.15), .spring(duration: 0.5, bounce: 0.3), .spring(duration: 0.8, bounce: -0.4, velocity: 2),
                                 .spring(response: 0.6, dampingFraction: 0.45), .spring(mass: 2, stiffness: 150, damping: 8, initialVelocity: 1),
                                 .spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: -3)]
        let repetitions: [(Repetition, Bool)] = [(.once, false), (.once, true), (.count(3), true), (.count(4), false), (.forever, true), (.forever, false)]
        for (k, timing) in timings.enumerated() {
            let (repetition, autoreverses) = repetitions[k % repetitions.count]
            let a = Animated<Double>.transition(Transition(from: -2, to: 5, timing: timing, repetition: repetition, autoreverses: autoreverses,
                                                           delay: k % 3 == 0 ? 0.3 : 0, speed: k % 4 == 1 ? 1.7 : 1))
            extra.numbers.append(("transition \(k)", a))
        }
        for p in props + [extra] {
            for (label, a) in p.numbers where a.namedValues.count > 1 || { if case .constant = a { return false } else { return true } }() {
                addAnimated(label, a, type: "Double", literal: SwiftLiteral.number, expected: { [a.value(at: $0)] }, components: "[v]")
            }
            for (label, a) in p.points {
                if case .constant = a { continue }
                addAnimated(label, a, type: "SIMD2<Double>", literal: SwiftLiteral.pair, expected: { let v = a.value(at: $0); return [v.x, v.y] }, components: "[v.x, v.y]")
            }
            for (label, a) in p.colors {
                if case .constant = a { continue }
                addAnimated(label, a, type: "WelkinRGBA", literal: { c.rgba($0) }, expected: { let v = a.value(at: $0); return [v.r, v.g, v.b, v.a] }, components: "[v.r, v.g, v.b, v.a]")
            }
        }
        XCTAssertGreaterThanOrEqual(animatedCount, 25)

        // An animated gradient's stops at the scene time (clamped, sorted again): Gradient.at's.
        for (file, scene) in try Self.scenes {
            for (i, layer) in scene.layers.enumerated() {
                guard let g = layer.content as? Gradient, let a = g.animation, a.isAnimated else { continue }
                let name = "stops\(setup.count)"
                setup.append("let \(name): [(color: WelkinAnimated<WelkinRGBA>, location: WelkinAnimated<Double>)] = [" + a.stops.map {
                    "(\(AnimationExport.runtimeLiteral($0.color) { c.rgba($0) }), \(AnimationExport.runtimeLiteral($0.location, SwiftLiteral.number)))"
                }.joined(separator: ", ") + "]")
                check("\(file)[\(i)] stops", at: times, "welkinStops(\(name), at: t).flatMap { [$0.location, $0.color.r, $0.color.g, $0.color.b, $0.color.a] }") { t in
                    g.at(t).stops.flatMap { [$0.location, $0.color.r, $0.color.g, $0.color.b, $0.color.a] }
                }
                animatedCount += 1
            }
        }

        // A mesh's animated vertices and colours (MeshExport: WelkinAnimated per item, colours moving
        // in the mesh's space through welkinMix(_:_:_:in:)): MeshGradient.at's.
        var meshes = 0
        for (file, scene) in try Self.scenes {
            for (i, layer) in scene.layers.enumerated() {
                guard let m = layer.content as? MeshGradient, m.pointAnimations != nil || m.colorAnimations != nil else { continue }
                let space = m.colorSpace ?? scene.colorSpace
                if let points = m.pointAnimations {
                    let name = "meshPoints\(setup.count)"
                    setup.append("let \(name): [WelkinAnimated<SIMD2<Double>>] = [" + points.map { AnimationExport.runtimeLiteral($0, SwiftLiteral.pair) }.joined(separator: ", ") + "]")
                    check("\(file)[\(i)] vertices", at: times + [7.9, 100.5], "\(name).flatMap { let p = $0.value(at: t, mix: welkinMix); return [p.x, p.y] }") { t in
                        m.at(t, sceneSpace: scene.colorSpace).startPositions.flatMap { [$0.x, $0.y] }
                    }
                }
                if let colors = m.colorAnimations {
                    let name = "meshColors\(setup.count)"
                    setup.append("let \(name): [WelkinAnimated<WelkinRGBA>] = [" + colors.map { AnimationExport.runtimeLiteral($0) { c.rgba($0) } }.joined(separator: ", ") + "]")
                    check("\(file)[\(i)] colours", at: times + [7.9, 100.5],
                          "\(name).flatMap { let v = $0.value(at: t) { welkinMix($0, $1, $2, in: .\(GradientExport.spaceName(space))) }; return [v.r, v.g, v.b, v.a] }") { t in
                        m.at(t, sceneSpace: scene.colorSpace).colors.flatMap { [$0.r, $0.g, $0.b, $0.a] }
                    }
                }
                meshes += 1
            }
        }
        XCTAssertGreaterThanOrEqual(meshes, 1)

        // Clocks: every clock label, and the same labels under text-clock's dated sky.
        var clocks = 0
        let dated = try SceneLoader.load(path: SwiftCompiler.repository.appendingPathComponent("Scenes/text-clock.json").path)
        var templates: [TextTemplate] = [try TextTemplate.parse("{time:yyyy-MM-dd HH:mm:ss} {time:yy M d h hh H a} '{{x}}'")]
        for (_, scene) in try Self.scenes {
            for layer in scene.layers { if let t = layer.content as? TextLayer, !t.template.isConstant { templates.append(t.template) } }
        }
        for template in templates {
            for scene in [Scene(), dated] {
                let name = "clock\(clocks)"
                var s = SwiftSource()
                s.block("let \(name) = WelkinClock(", ")") { s in TextExport.clockArguments(template, scene, into: &s) }
                setup.append(s.text)
                check(name, at: times.map { $0 * 97.3 } + [86399.5, 1e7], "\(name).string(at: t).unicodeScalars.map { Double($0.value) }") { t in
                    template.render(scene.clock(at: t)).unicodeScalars.map { Double($0.value) }
                }
                clocks += 1
            }
        }

        var program = "import Foundation\n\n" + RuntimeSupport.closure(["keyframes", "transition", "clock", "colorMix"]).map(\.source).joined(separator: "\n\n")
        program += "\n\nprivate func driver() {\n" + setup.joined(separator: "\n") + "\n"
        for loop in loops {
            program += "for t in [\(loop.at.map(SwiftLiteral.number).joined(separator: ", "))] as [Double] { print(\(SwiftLiteral.string(loop.key)) + \" at \\(t)\\t\" + (\(loop.expression)).map { \"\\($0)\" }.joined(separator: \" \")) }\n"
        }
        program += "}\n\ndriver()\n"
        let printed = try SwiftCompiler.runDriver(program, name: "animation-twins")
        var worst = 0.0
        for check in checks {
            guard let values = printed[check.key] else { XCTFail("\(check.key): not printed"); continue }
            XCTAssertEqual(values.count, check.expected.count, check.key)
            for (v, e) in zip(values, check.expected) {
                worst = max(worst, abs(v - e))
                if abs(v - e) > 1e-9 { XCTFail("\(check.key): \(v) instead of WelkinCore's \(e)"); break }
            }
        }
        print("animation twins: \(count) keyframed properties, \(animatedCount) animated values, \(meshes) animated meshes, \(clocks) clocks, \(checks.count) checks, largest difference \(worst)")
    }
}

/// A generated text the test cannot read back: the test fails with this message (never a skip).
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
