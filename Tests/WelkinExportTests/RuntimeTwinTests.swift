// The runtime snippets exported files carry are twins of WelkinCore's functions: this compiles the
// Foundation-only snippets with a driver, runs it, and holds every number it prints to WelkinCore's.

import Foundation
import XCTest
@testable import WelkinExport
@testable import WelkinCore

final class RuntimeTwinTests: XCTestCase {
    /// One value the driver prints and the number (or numbers) WelkinCore gives for it.
    struct Check {
        var key: String
        var driver: String
        var expected: [Double]
        var tolerance: Double
    }

    /// A driver statement that prints `key`, a tab and `values` (a `[Double]` expression).
    static func printing(_ key: String, _ values: String) -> String {
        "print(\(SwiftLiteral.string(key + "\t")) + (\(values)).map { \"\\($0)\" }.joined(separator: \" \"))"
    }

    func testRuntimeSnippetsMatchWelkinCore() throws {
        var checks: [Check] = []
        var setup: [String] = []
        func check(_ key: String, _ driver: String, _ expected: [Double], tolerance: Double = 0) {
            checks.append(Check(key: key, driver: driver, expected: expected, tolerance: tolerance))
        }
        let scenes = try CodeExportTests.scenePaths.map { ($0, try SceneLoader.load(path: $0)) }
        func n(_ v: Double) -> String { SwiftLiteral.number(v) }

        // Random walk and spring: every mesh walk of the examples, and springs of every damping regime.
        var walks: [(name: String, walk: MeshRandomWalk, start: [UnitPoint], seed: UInt64)] = []
        for (path, scene) in scenes {
            for (i, layer) in scene.layers.enumerated() {
                if let m = layer.content as? MeshGradient, let walk = m.animation {
                    walks.append(("\(URL(fileURLWithPath: path).lastPathComponent)[\(i)]", walk, m.startPositions, scene.seed))
                }
            }
        }
        XCTAssertEqual(walks.count, 6)   // mesh-seed, mesh-seed-dark, mesh-keyframes, mesh-bezier, mesh-text's background, p3-sunset
        if let (_, walk, start, _) = walks.first {
            for bounce in [0.0, -0.5, 0.6] {
                var w = walk
                w.spring = MeshSpring(duration: 0.7, bounce: bounce)
                walks.append(("spring bounce \(bounce)", w, start, 42))
            }
        }
        for (k, item) in walks.enumerated() {
            let c = ExportContext(scene: Scene(), target: .swiftUI)
            var s = SwiftSource()
            let start = "[" + item.start.map { SwiftLiteral.pair($0) }.joined(separator: ", ") + "]"
            s.block("let walk\(k) = WelkinRandomWalk(", ")") { s in MeshExport.walkArguments(item.walk, seed: item.seed, start: start, c, into: &s) }
            setup.append(s.text)
            // Forward, then back in time (the player rewinds), then far forward.
            for t in [0, 0.05, 1.5, 7.3, 3.0, 61.25] {
                let expected = item.walk.positions(start: item.start, seed: item.seed, at: t).flatMap { [$0.x, $0.y] }
                check("walk \(item.name) at \(t)", "walk\(k).positions(at: \(n(t))).flatMap { [$0.x, $0.y] }", expected)
            }
        }

        // Mesh colour keyframes.
        for (path, scene) in scenes {
            for (i, layer) in scene.layers.enumerated() {
                guard let m = layer.content as? MeshGradient, !m.colorKeyframes.isEmpty else { continue }
                let space = m.colorSpace ?? scene.colorSpace
                let c = ExportContext(scene: scene, target: .swiftUI)
                var s = SwiftSource()
                let name = "meshColors\(i)"
                s.block("let \(name) = WelkinMeshColors(", ")") { s in MeshExport.colorArguments(m, space: space, c, into: &s) }
                setup.append(s.text)
                for t in [0, 1.5, 3, 4.2, 6, 9] {
                    let premultiplied = MeshDraw.colors(m, space: space, time: t)
                    let expected = premultiplied.flatMap { p -> [Double] in
                        let q = ColorMath.fromInterpolationSpace(SIMD4<Float>(p), space)
                        guard q.w > 0 else { return [0, 0, 0, 0] }
                        // Unclamped: extended sRGB, as WelkinCore's fromInterpolationSpace.
                        let rgb = SIMD3(q.x, q.y, q.z) / q.w
                        return [Double(rgb.x), Double(rgb.y), Double(rgb.z), Double(min(q.w, 1))]
                    }
                    check("mesh colours \(URL(fileURLWithPath: path).lastPathComponent)[\(i)] at \(t)",
                          "\(name).at(\(n(t))).flatMap { [$0.r, $0.g, $0.b, $0.a] }", expected)
                }
            }
        }

        // Sprites: coverage of every procedural sprite over a grid of points.
        let kinds: [SpriteKind] = [.dot, .softDot, .flake, .streak, .cloud]
        for kind in kinds {
            let size: SIMD2<Float> = kind == .streak ? [40, 6] : [32, 32]
            var expected: [Double] = []
            var points: [String] = []
            for y in stride(from: -24.0, through: 24, by: 3.5) {
                for x in stride(from: -24.0, through: 24, by: 2.75) {
                    expected.append(Double(SpriteShape.coverage(kind, SIMD2(Float(x), Float(y)), size: size, blur: 4)))
                    points.append("[\(n(x)), \(n(y))]")
                }
            }
            check("sprite \(kind)", "([\(points.joined(separator: ", "))] as [SIMD2<Float>]).map { Double(WelkinSpriteShape.coverage(.\(kind.rawValue), $0, size: [\(size.x), \(size.y)], blur: 4)) }", expected)
        }

        // The sun: places and instants around the year, poles included.
        let instants: [(Double, Double, Double)] = [(1710889200, 48.8566, 2.3522), (1720644300, 51.5, -0.12), (1705352400, 59.91, 10.75),
                                                    (1719000000, 89.9, 0), (1734800000, -89.5, 120), (946684800, -33.9, 151.2)]
        for (k, (seconds, latitude, longitude)) in instants.enumerated() {
            for hour in stride(from: 0.0, to: 24, by: 5.5) {
                let t = seconds + hour * 3600
                let p = SunPosition(time: Timestamp(unixSeconds: t, offsetSeconds: 0), latitude: latitude, longitude: longitude)
                check("sun \(k) +\(hour) h", "{ let p = WelkinSun.position(unixSeconds: \(n(t)), latitude: \(n(latitude)), longitude: \(n(longitude))); return [p.elevation, p.azimuth] }()",
                      [p.elevation, p.azimuth])
            }
        }

        // The sky: palette colours with the weather's tint at scene times, for every sky layer.
        var skyStops: [(key: String, sky: SkyLayer, scene: Scene, time: Double, variable: String)] = []
        for (path, scene) in scenes {
            for (i, layer) in scene.layers.enumerated() {
                // A physical sky is not exported as a gradient (SkyExport reports it).
                guard case .sky(let sky)? = layer.content as? SkyContent, sky.model == .palette else { continue }
                let c = ExportContext(scene: scene, target: .swiftUI)
                let name = "sky\(setup.count)"
                setup.append("let \(name) = WelkinSky(\n" + SkyExport.modelArguments(sky, c).map { "    " + $0 }.joined(separator: "\n") + "\n)")
                let file = URL(fileURLWithPath: path).lastPathComponent
                for t in [0, 4.5, 6, 11.2, 17, 26, 31, 600] {
                    let state = SkyState(layer: sky, time: t, weather: WeatherState(scene.weather, time: t, seed: scene.seed))
                    let expected = [state.colors.zenith.lab.x, state.colors.zenith.lab.y, state.colors.zenith.lab.z,
                                    state.colors.horizon.lab.x, state.colors.horizon.lab.y, state.colors.horizon.lab.z]
                    check("sky \(file)[\(i)] at \(t)", "{ let c = \(name).colors(at: \(n(t))); return [c.zenith.lab.x, c.zenith.lab.y, c.zenith.lab.z, c.horizon.lab.x, c.horizon.lab.y, c.horizon.lab.z] }()",
                          expected, tolerance: 1e-12)
                    skyStops.append(("sky stops \(file)[\(i)] at \(t)", sky, scene, t, name))
                }
            }
        }
        XCTAssertGreaterThanOrEqual(skyStops.count, 5 * 8)

        // Gradient stops cut into pieces: every piece carries Welkin's colour at its location.
        var gradients: [(key: String, stops: [GradientStop], space: ColorSpace)] = []
        for (path, scene) in scenes {
            for (i, layer) in scene.layers.enumerated() {
                guard let g = layer.content as? Gradient else { continue }
                let space = g.colorSpace ?? scene.colorSpace
                if GradientExport.needsPieces(g.stops, space: space) {
                    gradients.append(("\(URL(fileURLWithPath: path).lastPathComponent)[\(i)]", g.stops, space))
                }
            }
        }
        XCTAssertGreaterThanOrEqual(gradients.count, 3)
        let redBlue = [GradientStop(color: RGBA(1, 0, 0), location: 0), GradientStop(color: RGBA(0, 0, 1), location: 1)]
        let fade = [GradientStop(color: RGBA(1, 0.8, 0.2, 1), location: 0), GradientStop(color: RGBA(0.1, 0.2, 0.9, 0), location: 1)]
        gradients += [("red → blue, OKLab", redBlue, .oklab), ("red → blue, linear", redBlue, .linearSRGB), ("fading, sRGB", fade, .srgb)]
        var pieceLists: [(key: String, stops: [GradientStop], space: ColorSpace, variable: String)] = []
        for (k, g) in gradients.enumerated() {
            let c = ExportContext(scene: Scene(), target: .swiftUI)
            var s = SwiftSource()
            GradientExport.writeTuples(g.stops, space: g.space, pieces: true, prefix: "let pieces\(k) = ", suffix: "", c, into: &s)
            setup.append(s.text)
            pieceLists.append((g.key, g.stops, g.space, "pieces\(k)"))
        }

        // Core Animation's radial and conic remapping.
        // Opaque stops: straight and premultiplied interpolation agree, so only the geometry is tested.
        let rays = (0..<5).map { GradientStop(color: $0 % 2 == 0 ? RGBA(1, 0.5, 0) : RGBA(0.2, 0.4, 1), location: Double($0) / 4) }
        let conics: [(Double, Double)] = [(-90, 270), (0, 200), (30, -120), (10, 510), (0, -500), (45, 45), (-30, 690)]
        let radials: [(Double, Double)] = [(20, 220), (0, 300), (150, 40), (80, 80), (0, 0)]
        for (k, (a0, a1)) in conics.enumerated() {
            for clockwise in [true, false] {
                setup.append("let conic\(k)\(clockwise) = welkinConicStops(rays, startAngle: \(n(a0)), endAngle: \(n(a1)), sweepsClockwise: \(clockwise))")
            }
        }
        for (k, (r0, r1)) in radials.enumerated() {
            setup.append("let radial\(k) = welkinRadialStops(rays, from: \(n(r0)), to: \(n(r1)))")
        }
        setup.insert("let rays: [(location: Double, color: WelkinRGBA)] = [" + rays.map { "(\(n($0.location)), WelkinRGBA(\(n($0.color.r)), \(n($0.color.g)), \(n($0.color.b)), \(n($0.color.a))))" }.joined(separator: ", ") + "]", at: 0)

        // Build and run the driver.
        var program = "import Foundation\n\n" + RuntimeSupport.all.filter(\.pure).sorted().map(\.source).joined(separator: "\n\n")
        // Locals, not globals: the snippets' types are private.
        program += "\n\n// MARK: driver\n\nprivate func driver() {\n" + setup.joined(separator: "\n") + "\n"
        for c in checks { program += Self.printing(c.key, c.driver) + "\n" }
        func printList(_ key: String, _ expression: String) {
            program += Self.printing(key, "\(expression).flatMap { [$0.location, $0.color.r, $0.color.g, $0.color.b, $0.color.a] }") + "\n"
        }
        for list in pieceLists { printList("pieces " + list.key, list.variable) }
        for k in conics.indices {
            for clockwise in [true, false] {
                program += Self.printing("conic angle \(k) \(clockwise)", "[conic\(k)\(clockwise).angle]") + "\n"
                printList("conic \(k) \(clockwise)", "conic\(k)\(clockwise).stops")
            }
        }
        for k in radials.indices { printList("radial \(k)", "radial\(k)") }
        for stops in skyStops { printList(stops.key, "\(stops.variable).stops(at: \(n(stops.time)))") }
        program += "}\n\ndriver()\n"

        let printed = try SwiftCompiler.runDriver(program, name: "twins")

        // Twins: the same numbers.
        for c in checks {
            guard let values = printed[c.key] else { XCTFail("\(c.key): not printed"); continue }
            XCTAssertEqual(values.count, c.expected.count, c.key)
            for (v, e) in zip(values, c.expected) where abs(v - e) > c.tolerance {
                XCTFail("\(c.key): \(v) instead of WelkinCore's \(e)\n\(values)\n\(c.expected)")
                break
            }
        }

        // Pieces: Welkin's colour at every piece, and within half a step of 8 bits in between.
        for list in pieceLists {
            guard let values = printed["pieces " + list.key] else { XCTFail("\(list.key): not printed"); continue }
            let stops = Self.stops(values)
            let welkin = ResolvedStops(list.stops, space: list.space)
            for (k, stop) in stops.enumerated() where !stops.indices.contains(k + 1) || stops[k + 1].location != stop.location {
                let e = Self.straight(welkin.evaluate(Float(stop.location)))
                XCTAssertLessThanOrEqual(Self.distance(Self.premultiplied(stop.color), Self.premultiplied(e)), 2e-6, "\(list.key) at \(stop.location)")
            }
            let error = (0...2000).map { i -> Double in
                let t = Double(i) / 2000
                let piece = Self.premultiplied(Self.interpolate(stops, at: t))
                return Self.distance(piece, Self.premultiplied(Self.straight(welkin.evaluate(Float(t)))))
            }.max() ?? 0
            XCTAssertLessThan(error, 0.5 / 255, "\(list.key): pieces stray \(error * 255)/255 from Welkin's colours")
        }

        // Radial: a CAGradientLayer from the centre (0) to the larger radius (1) shows Welkin's colour at every distance.
        let raysResolved = ResolvedStops(rays, space: .srgb)
        for (k, (r0, r1)) in radials.enumerated() {
            guard let values = printed["radial \(k)"] else { XCTFail("radial \(k): not printed"); continue }
            let stops = Self.stops(values)
            let outer = max(r0, r1)
            for d in stride(from: 0.25, through: 2 * max(outer, 1), by: 0.5) {
                if r0 == r1, abs(d - r0) < 0.3 { continue }   // the hard edge
                let t: Float = r1 != r0 ? Float((d - r0) / (r1 - r0)) : (d > r0 ? 1 : 0)
                let welkin = Self.straight(raysResolved.evaluate(min(max(t, 0), 1)))
                let ca = Self.interpolate(stops, at: outer > 0 ? d / outer : 1)
                XCTAssertLessThan(Self.distance(Self.premultiplied(ca), Self.premultiplied(welkin)), 1e-5, "radial \(k) (\(r0) → \(r1)) at \(d) pt")
            }
        }

        // Conic: a CAGradientLayer sweeping one turn from `angle` shows SwiftUI's angular gradient.
        for (k, (a0, a1)) in conics.enumerated() {
            for clockwise in [true, false] {
                guard let angle = printed["conic angle \(k) \(clockwise)"]?.first, let values = printed["conic \(k) \(clockwise)"] else {
                    XCTFail("conic \(k): not printed"); continue
                }
                let stops = Self.stops(values)
                let start = Float(a0 * .pi / 180), span = Float((a1 - a0) * .pi / 180)
                for theta in stride(from: 0.37, to: 360, by: 1.0) {
                    let turned = (clockwise ? theta - angle : angle - theta)
                    let c = (turned.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
                    let t = GradientDraw.angularParameter(angle: Float(theta * .pi / 180), start: start, span: span)
                    // Skip the hard edges (the wedge's switch, the turn's seam) by a hair.
                    let near = [0.0, 1.0].contains { abs(c - $0) < 1e-3 } || stops.contains { abs($0.location - c) < 1e-3 && $0.location > 0 && $0.location < 1 }
                    if near { continue }
                    let welkin = Self.straight(raysResolved.evaluate(min(max(t, 0), 1)))
                    let ca = Self.interpolate(stops, at: c)
                    XCTAssertLessThan(Self.distance(Self.premultiplied(ca), Self.premultiplied(welkin)), 2e-4,
                                      "conic \(k) (\(a0)° → \(a1)°, sweeps clockwise: \(clockwise)) at \(theta)°")
                }
            }
        }

        // Sky stops: within half a step of 8 bits of Welkin's zenith-to-horizon blend (glow aside).
        for item in skyStops {
            guard let values = printed[item.key] else { XCTFail("\(item.key): not printed"); continue }
            let stops = Self.stops(values)
            let state = SkyState(layer: item.sky, time: item.time, weather: WeatherState(item.scene.weather, time: item.time, seed: item.scene.seed))
            let zenith = SIMD3<Float>(state.colors.zenith.lab), horizon = SIMD3<Float>(state.colors.horizon.lab)
            let span = max(item.sky.horizon, 1)
            var worst = 0.0
            for i in 0...1000 {
                let y = Double(i) / 1000 * span
                let f = Float(min(max(y / item.sky.horizon, 0), 1))
                var lab = zenith + (horizon - zenith) * (f * f)
                if y > item.sky.horizon { lab.x *= 0.55 }
                let rgb = ColorMath.linearToSRGB(ColorMath.oklabToLinear(lab).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)))
                let welkin = RGBA(Double(rgb.x), Double(rgb.y), Double(rgb.z), 1)
                worst = max(worst, Self.distance(Self.premultiplied(Self.interpolate(stops, at: y / span)), Self.premultiplied(welkin)))
            }
            XCTAssertLessThan(worst, 0.5 / 255, "\(item.key): the sampled sky strays \(worst * 255)/255 from Welkin's")
        }
    }

    // MARK: helpers

    static func stops(_ values: [Double]) -> [(location: Double, color: RGBA)] {
        stride(from: 0, to: values.count - 4, by: 5).map { (values[$0], RGBA(values[$0 + 1], values[$0 + 2], values[$0 + 3], values[$0 + 4])) }
    }

    /// Straight-alpha sRGB from Welkin's premultiplied result.
    static func straight(_ p: SIMD4<Float>) -> RGBA {
        guard p.w > 0 else { return .clear }
        return RGBA(Double(p.x / p.w), Double(p.y / p.w), Double(p.z / p.w), Double(p.w))
    }

    static func premultiplied(_ c: RGBA) -> SIMD4<Double> { SIMD4(c.r * c.a, c.g * c.a, c.b * c.a, c.a) }

    static func distance(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Double {
        let d = a - b
        return [d.x, d.y, d.z, d.w].map(Swift.abs).max() ?? 0
    }

    /// What an API interpolating straight sRGB between stops shows at t (the end colours pad; at a
    /// hard edge the later colour).
    static func interpolate(_ stops: [(location: Double, color: RGBA)], at t: Double) -> RGBA {
        guard t > stops[0].location else { return stops[0].color }
        guard t < stops[stops.count - 1].location else { return stops[stops.count - 1].color }
        var i = 0
        while !(t < stops[i + 1].location) { i += 1 }
        let (l0, a) = stops[i], (l1, b) = stops[i + 1]
        let f = (t - l0) / (l1 - l0)
        return RGBA(a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, a.a + (b.a - a.a) * f)
    }
}
