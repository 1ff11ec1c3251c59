// FramePlan: every example's passes and targets, made without GL (the counts are pinned here, so a
// change that adds a pass or a float target to an example shows in review), the plan's own rules
// (targets written before read, one pass writes the picture, last), and that GLRenderer draws the
// layers its plan lists.

import XCTest
import Foundation
import WelkinTestSupport
import WelkinCore
@testable import WelkinGL

final class FramePlanTests: XCTestCase {
    /// (passes, draw passes, targets, float RGBA targets — RGBA16F or RGBA32F) of every example's
    /// frame at t = 1.5 s, 1280×720.
    static let expected: [String: (passes: Int, draws: Int, targets: Int, floatTargets: Int)] = [
        "aurora-lake": (4, 3, 4, 3),
        "all-sky": (1, 1, 1, 0),
        "day-cycle": (1, 1, 1, 0),
        "day-gradient": (1, 1, 1, 0),
        "fire": (3, 2, 2, 1),
        "fog": (1, 1, 1, 0),
        "gradients": (4, 3, 2, 1),
        "look-around": (5, 4, 4, 3),
        "mesh-bezier": (6, 4, 3, 2),
        "mesh-keyframes": (1, 1, 1, 0),
        "mesh-seed-dark": (1, 1, 1, 0),
        "mesh-seed": (1, 1, 1, 0),
        "mesh-text": (13, 9, 7, 6),
        "milky-way": (1, 1, 1, 0),
        "night-paris": (1, 1, 1, 0),
        "p3-sunset": (4, 3, 2, 1),
        "phone-snow": (9, 8, 5, 3),
        "physical-day-cycle": (1, 1, 1, 0),
        "physical-day": (1, 1, 1, 0),
        "physical-twilight": (1, 1, 1, 0),
        "rain": (4, 3, 2, 1),
        "rainy-evening": (9, 8, 5, 3),
        "shader-aurora": (5, 3, 3, 2),
        "shadertoy-clouds": (3, 2, 2, 1),
        // Buffer A, the clear and the shader into the layer target, the composite; the buffer's
        // two ping-pong targets and the layer's are float.
        "star-trails": (4, 3, 4, 3),
        "snow": (4, 3, 2, 1),
        "snowy-night": (7, 6, 4, 3),
        "stars-emerge": (1, 1, 1, 0),
        "stars": (5, 4, 2, 1),
        "storm": (9, 8, 5, 3),
        "sunset-clouds": (5, 4, 4, 3),
        "text-clock": (15, 12, 5, 4),
        "text-scripts": (19, 14, 6, 5),
        "weather-tour": (8, 7, 4, 3),
        // The presets' grid: sky, clouds (march, box means and upsample), and the weather's precipitation.
        "weather/clear-phone": (5, 4, 4, 3), "weather/clear-wide": (5, 4, 4, 3),
        "weather/cloudy-phone": (5, 4, 4, 3), "weather/cloudy-wide": (5, 4, 4, 3),
        // A deck over the sky: its cover passes and their blocks target too (FramePlan.cover).
        "weather/overcast-phone": (7, 6, 5, 3), "weather/overcast-wide": (7, 6, 5, 3),
        "weather/rain-phone": (9, 8, 5, 3), "weather/rain-wide": (9, 8, 5, 3),
        "weather/snow-phone": (9, 8, 5, 3), "weather/snow-wide": (9, 8, 5, 3),
        "weather/storm-phone": (9, 8, 5, 3), "weather/storm-wide": (9, 8, 5, 3),
        // Fog: no cloud to march, the sky alone.
        "weather/fog-phone": (1, 1, 1, 0), "weather/fog-wide": (1, 1, 1, 0),
    ]

    /// The examples: Scenes/*.json and the weather presets' grid (Scenes/weather/*.json, named weather/…).
    static func examples() throws -> [(name: String, scene: Scene)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.scenes.path).filter { $0.hasSuffix(".json") }.sorted()
        let weather = try FileManager.default.contentsOfDirectory(atPath: Repository.scenes.appendingPathComponent("weather").path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "weather/" + $0 }
        return try (files + weather).map { (String($0.dropLast(5)), try SceneLoader.load(path: Repository.scenes.appendingPathComponent($0).path)) }
    }

    static func plan(_ scene: Scene, options: FramePlan.Options = FramePlan.Options()) -> FramePlan {
        FramePlan(Frame(scene: scene, time: 1.5, pixelSize: SIMD2(1280, 720)), options: options)
    }

    func testEveryExamplesPassAndTargetCounts() throws {
        var seen: [String] = []
        for (name, scene) in try Self.examples() {
            let p = Self.plan(scene)
            let floats = p.targets.filter { $0.format == .rgba32f || $0.format == .rgba16f }.count
            seen.append(name)
            guard let e = Self.expected[name] else {
                XCTFail("\(name): no expected counts; it plans \(p.passes.count) passes, \(p.drawPasses.count) draws, \(p.targets.count) targets, \(floats) float")
                continue
            }
            XCTAssertEqual(p.passes.count, e.passes, "\(name): passes \(p.passes.map(\.name))")
            XCTAssertEqual(p.drawPasses.count, e.draws, "\(name): draws")
            XCTAssertEqual(p.targets.count, e.targets, "\(name): targets \(p.targets.map(\.key))")
            XCTAssertEqual(floats, e.floatTargets, "\(name): float targets")
        }
        XCTAssertEqual(Set(seen), Set(Self.expected.keys), "an expected example is gone")
    }

    /// The frame's compositing targets are half floats for an 8-bit picture and RGBA32F for a
    /// 16-bit one; the targets kept for their precision (groups, buffers, the clouds' grid) stay RGBA32F.
    func testCompositingTargetsAreHalfFloatsForEightBitOutput() throws {
        var checked = 0
        for (name, scene) in try Self.examples() {
            let eight = Self.plan(scene)
            var options = FramePlan.Options()
            options.depth16 = true
            let sixteen = Self.plan(scene, options: options)
            for key in ["accumulation", "layer"] {
                guard let t = eight.target(key) else { continue }
                XCTAssertEqual(t.format, .rgba16f, "\(name): \(key) for 8-bit output")
                XCTAssertEqual(sixteen.target(key)?.format, .rgba32f, "\(name): \(key) for 16-bit output")
                checked += 1
            }
            for t in eight.targets where t.key.hasPrefix("group.") || t.key.hasPrefix("clouds.") || t.key.hasPrefix("shader.") {
                XCTAssertNotEqual(t.format, .rgba16f, "\(name): \(t.key)")
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }

    /// A one-layer gradient is one pass into the picture; a gradient with no float target at all.
    func testOneLayerFramesAreOnePass() throws {
        let scene = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("day-gradient.json").path)
        let p = Self.plan(scene)
        XCTAssertTrue(p.lastLayerResolves)
        XCTAssertEqual(p.passes.map(\.program), ["gradient-band.frag [resolve, background, dither, srgb]"])
        XCTAssertEqual(p.targets.map(\.key), ["output"])
        // Without fusing the last layer: a float target, the layer, and the resolve pass.
        var options = FramePlan.Options()
        options.fusesLastLayer = false
        XCTAssertEqual(Self.plan(scene, options: options).passes.map(\.name), ["clear (background)", "linear gradient", "resolve"])
        options = FramePlan.Options()
        options.depth16 = true
        XCTAssertEqual(Self.plan(scene, options: options).targets.map(\.key), ["output16", "accumulation"])
    }

    /// A radial glow whose last stop is transparent adds nothing beyond its end radius: it is drawn
    /// within its box (2 px to spare for rounding) and, as the last layer and under half the frame,
    /// leaves the quantising to the resolve pass; the GPU's picture still agrees with the CPU's
    /// (a box cut too small would cut the glow). One that ends opaque covers the frame and resolves
    /// itself.
    func testAFadingGlowIsDrawnWithinItsBox() throws {
        let json = """
            {"size": [320, 180], "background": "#102040",
             "layers": [{"type": "linearGradient", "stops": ["#203060", "#000000"]},
                        {"type": "radialGradient", "center": [0.25, 0.4], "endRadius": 30, "stops": ["#FFFFFF", "#FFE0A0FF", "#FFE0A000"]}]}
            """
        let scene = try SceneLoader.decode(json, file: "glow.json")
        let frame = Frame(scene: scene, time: 0, pixelSize: SIMD2(320, 180))
        let p = FramePlan(frame)
        XCTAssertFalse(p.lastLayerResolves)
        XCTAssertEqual(p.passes.map(\.name), ["clear (background)", "linear gradient", "radial gradient", "resolve"])
        // The centre (80, 72), 30 px to the end: [48, 40, 112, 104) with the 2 px, give or take the
        // rounding of 1 / (1/30) in Float.
        let box = try XCTUnwrap(p.passes[2].scissor)
        XCTAssertTrue((47...48).contains(box.x) && (39...40).contains(box.y) && (112...113).contains(box.z) && (104...105).contains(box.w), "\(box)")
        XCTAssertNil(p.passes[1].scissor)
        try assertParity(frame, label: "fading glow")
        let opaque = try SceneLoader.decode(json.replacingOccurrences(of: "#FFE0A000", with: "#FFE0A0"), file: "glow.json")
        let q = FramePlan(Frame(scene: opaque, time: 0, pixelSize: SIMD2(320, 180)))
        XCTAssertTrue(q.lastLayerResolves)
        XCTAssertNil(q.passes.last?.scissor)
    }

    /// Every target a pass reads was written earlier in the frame (or is kept from frame to frame),
    /// every key names a planned target, and the picture is written once, by the last pass.
    func testPlansAreWellFormed() throws {
        for (name, scene) in try Self.examples() {
            for options in [FramePlan.Options(), { var o = FramePlan.Options(); o.fusesLastLayer = false; o.scissorsGroups = false; return o }()] {
                let p = Self.plan(scene, options: options)
                let keys = Set(p.targets.map(\.key))
                XCTAssertEqual(keys.count, p.targets.count, "\(name): a key twice")
                var written: Set<String> = []
                for pass in p.passes {
                    for r in pass.reads {
                        XCTAssertTrue(keys.contains(r), "\(name): \(pass.name) reads \(r), not planned")
                        // A shader buffer's `.previous` target holds its last frame's picture (ping-pong).
                        XCTAssertTrue(written.contains(r) || r.hasSuffix(".previous"), "\(name): \(pass.name) reads \(r) before anything writes it")
                    }
                    XCTAssertTrue(keys.contains(pass.writes), "\(name): \(pass.name) writes \(pass.writes), not planned")
                    written.insert(pass.writes)
                }
                let picture = p.targets[0].key
                XCTAssertEqual(p.passes.filter { $0.writes == picture }.count, 1, "\(name): the picture is written once")
                XCTAssertEqual(p.passes.last?.writes, picture, "\(name)")
                XCTAssertGreaterThan(p.bytes, 0)
            }
        }
    }

    /// A cloud deck over a physical sky leaves the sky undrawn where the deck is exactly opaque
    /// (FramePlan.cover) and the picture is the same, bit for bit, as without: a deck with
    /// precipitation above it (storm, phone-snow; a palette sky's, rainy-evening), one that
    /// resolves the frame itself (overcast),
    /// rendered and as the viewer draws it while it plays; and the deck is opaque over most of the
    /// storm's frame (alpha exactly 1, what the cover marks).
    func testACoverLeavesThePictureAsItWas() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.coversLayersBelow = true }
        for name in ["storm", "phone-snow", "rainy-evening", "weather/overcast-wide", "weather/rain-phone"] {
            let scene = try SceneLoader.load(path: Repository.scenes.appendingPathComponent(name + ".json").path)
            for (options, time) in [(FrameOptions(), 1.5), (FrameOptions(interactive: true), 2.0)] {
                let frame = Frame(scene: scene, time: time, pixelSize: SIMD2(320, 180), options: options)
                renderer.coversLayersBelow = true
                XCTAssertNotNil(renderer.plan(frame).cover, "\(name): a cover")
                renderer.forgetLastFrame()
                try renderer.draw(frame)
                let covered = renderer.readImage()
                renderer.coversLayersBelow = false
                XCTAssertNil(renderer.plan(frame).cover)
                renderer.forgetLastFrame()
                try renderer.draw(frame)
                XCTAssertEqual(covered, renderer.readImage(), "\(name) at \(time) s: the same picture with and without the cover")
            }
        }
        // The storm's deck is exactly opaque over most of the frame: there the picture is the same
        // with its sky and without it (the rain, drawn over both, left out).
        var storm = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("storm.json").path)
        storm.weather?.precipitation = .off
        renderer.coversLayersBelow = false
        var withoutSky = storm
        withoutSky.layers[0].opacity = 0
        let with = try renderer.render(Frame(scene: storm, time: 1.5, pixelSize: SIMD2(320, 180)))
        let without = try renderer.render(Frame(scene: withoutSky, time: 1.5, pixelSize: SIMD2(320, 180)))
        let same = stride(from: 0, to: with.pixels.count, by: 4).filter { with.pixels[$0..<$0 + 4] == without.pixels[$0..<$0 + 4] }.count
        print("storm's deck: \(same) of \(with.pixels.count / 4) pixels the same without the sky")
        XCTAssertGreaterThan(same, with.pixels.count / 4 / 2)
    }

    /// A cover whose program does not build (clouds-cover.vert broken in a copy of Shaders/) is no
    /// cover: the frame draws whole, no layer fails, the same picture as with it.
    func testABrokenCoverIsNoCover() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-cover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Shaders"), to: directory)
        let cover = directory.appendingPathComponent("clouds-cover.vert")
        let text = try String(contentsOf: cover, encoding: .utf8)
        let broken = text.replacingOccurrences(of: "    float far = 1e6;", with: "    float far = 1e6 + undefinedHere;")
        XCTAssertNotEqual(broken, text)
        try broken.write(to: cover, atomically: true, encoding: .utf8)
        let context = try TestGL.renderer().context
        let renderer = try GLRenderer(context: context, shaders: try ShaderLibrary.locate(override: directory.path))
        let intact = try GLRenderer(context: context, shaders: try ShaderLibrary.locate())
        let storm = try SceneLoader.load(path: Repository.scenes.appendingPathComponent("storm.json").path)
        let frame = Frame(scene: storm, time: 1.5, pixelSize: SIMD2(320, 180))
        XCTAssertNotNil(renderer.plan(frame).cover)
        let picture = try renderer.render(frame)
        XCTAssertEqual(renderer.layerFailures.count, 0)
        XCTAssertEqual(picture, try intact.render(frame), "the same picture without its cover")
        // And the next frame too (the broken program is not built again).
        XCTAssertEqual(try renderer.render(Frame(scene: storm, time: 2, pixelSize: SIMD2(320, 180))),
                       try intact.render(Frame(scene: storm, time: 2, pixelSize: SIMD2(320, 180))))
    }

    /// The renderer draws what its plan says: each top-level draw the plan lists is timed once
    /// (measuresLayers), and the frame's own resolve when the plan has one.
    func testTheRendererDrawsThePlansLayers() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.measuresLayers = false }
        for name in ["mesh-text", "text-clock", "day-gradient", "snow", "gradients"] {
            let scene = try SceneLoader.load(path: Repository.scenes.appendingPathComponent(name + ".json").path)
            let frame = Frame(scene: scene, time: 1.5, pixelSize: SIMD2(320, 180))
            renderer.measuresLayers = true
            try renderer.draw(frame)
            let plan = try XCTUnwrap(renderer.lastPlan)
            XCTAssertEqual(plan, renderer.plan(frame), name)
            let planned = Set(plan.passes.compactMap(\.layer))
            XCTAssertEqual(Set(renderer.layerTimes.compactMap(\.position)), planned, "\(name): \(renderer.layerTimes)")
            XCTAssertEqual(renderer.layerTimes.count, planned.count + (plan.lastLayerResolves ? 0 : 1), "\(name): each draw timed once")
            XCTAssertEqual(renderer.layerTimes.contains { $0.position == nil }, plan.passes.contains { $0.name == "resolve" }, name)
        }
    }

    /// Every draw and clear the renderer issues is a pass of its plan, in the plan's order, with the
    /// plan's program into the plan's target (PassTiming records each as drawn; consecutive draws of
    /// one program into one target are one, as the sky's scissored cells are). The copy a mesh
    /// makes of the target below is a blit, not a draw; a user shader's ping-pong buffers are
    /// named by format and size (the two swap every frame). Timing leaves the picture as it was.
    /// (Its first run found nothing in the plans wrong beyond the two allowances below.)
    func testEveryDrawIsAPassOfThePlan() throws {
        let renderer = try TestGL.renderer()
        for (name, scene) in try Self.examples() {
          // As rendered, and as the viewer draws it while it plays.
          // (A frame later: a user shader's buffers run once a frame.)
          for (options, time) in [(FrameOptions(), 1.5), (FrameOptions(interactive: true), 1.5 + 1.0 / 60)] {
            let frame = Frame(scene: scene, time: time, pixelSize: SIMD2(320, 180), options: options)
            let plan = renderer.plan(frame)
            renderer.forgetLastFrame()
            let entries = try renderer.drawTimingPasses(frame)
            func merged(_ list: [(String, String)]) -> [(String, String)] {
                var out: [(String, String)] = []
                for e in list where out.last.map({ $0 != e }) ?? true { out.append(e) }
                return out
            }
            let planned = merged(plan.passes.compactMap { p -> (String, String)? in
                if p.program == "—" { return p.name.hasPrefix("clear") ? ("clear", p.writes) : nil }
                return (String(p.program.split(separator: " ")[0]), p.writes)
            })
            // A user shader's buffers are cleared when they are made or the clock jumps (the
            // renderer's history, not the frame's plan).
            let drawn = merged(entries.map { ($0.program, $0.target) }).filter { !($0.0 == "clear" && $0.1.hasPrefix("RGBA32F")) }
            // A particle layer with no particle alive at the instant draws nothing.
            var k = 0
            var matched: [(String, String)] = []
            for p in planned {
                if k < drawn.count, drawn[k].0 == p.0, p.1.hasPrefix("shader.") || drawn[k].1 == p.1 {
                    matched.append(p); k += 1
                } else if p.0 != "sprite.frag" {
                    XCTFail("\(name): planned \(p) not drawn there; drawn \(drawn), planned \(planned)")
                }
            }
            XCTAssertEqual(k, drawn.count, "\(name): drawn \(drawn), planned \(planned)")
            XCTAssertGreaterThanOrEqual(matched.count, planned.count - 1, name)
            XCTAssertTrue(entries.allSatisfy { $0.wall >= 0 && $0.draws >= 1 && $0.gpu == nil }, name)
            if name == "mesh-text" {
                // Timing draws the same picture as drawing.
                let timed = renderer.readImage()
                renderer.forgetLastFrame()
                try renderer.draw(frame)
                XCTAssertEqual(renderer.readImage(), timed)
            }
          }
        }
    }
}
