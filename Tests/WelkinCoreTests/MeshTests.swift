import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinCore

final class MeshTests: XCTestCase {
    // MARK: geometry

    func testRegularGridMapsLinearly() throws {
        let points: [UnitPoint] = (0..<3).flatMap { j in (0..<3).map { i in UnitPoint(Double(i) / 2, Double(j) / 2) } }
        let vertices = MeshGeometry.automaticHandles(points, width: 3, height: 3)
        // Handles sit exactly at 1/3 and 2/3 of each edge, the border ones included.
        XCTAssertEqual(vertices[0].trailing, [1.0 / 6, 0])
        XCTAssertEqual(vertices[1].leading.x, 0.5 - 1.0 / 6, accuracy: 1e-15)
        XCTAssertEqual(vertices[4].bottom.y, 0.5 + 1.0 / 6, accuracy: 1e-15)
        let size = SIMD2<Double>(640, 360)
        let patches = MeshGeometry.patches(vertices, width: 3, height: 3) { $0 * size }
        for (index, patch) in patches.enumerated() {
            let origin = SIMD2<Double>(Double(index % 2), Double(index / 2)) * size / 2
            for u in stride(from: 0.0, through: 1, by: 0.125) {
                for v in stride(from: 0.0, through: 1, by: 0.125) {
                    let p = patch.evaluate(u: u, v: v)
                    let expected = origin + SIMD2(u, v) * size / 2
                    XCTAssertEqual(p.x, expected.x, accuracy: 1e-9); XCTAssertEqual(p.y, expected.y, accuracy: 1e-9)
                }
            }
            let b = patch.secondDerivativeBounds
            XCTAssertEqual(b.uu + b.uv + b.vv, 0, accuracy: 1e-9, "a linear patch has no curvature")
        }
        // A flat patch needs no subdivision: two triangles per cell, vertices on the linear map.
        let draw = try frameMesh("""
            {"type": "meshGradient", "width": 3, "height": 3, "points": [[0,0],[0.5,0],[1,0],[0,0.5],[0.5,0.5],[1,0.5],[0,1],[0.5,1],[1,1]],
             "colors": ["red","green","blue","white","black","red","green","blue","white"]}
            """, size: [640, 360])
        XCTAssertEqual(draw.columnSteps, [1, 1]); XCTAssertEqual(draw.rowSteps, [1, 1])
        XCTAssertEqual(draw.indices.count, 4 * 6)
        XCTAssertTrue(draw.coversFrame)
    }

    func testCoonsInteriorMatchesPDFFormula() {
        // PDF 32000 §8.7.4.5.7: p11 = (−4p00 + 6(p01 + p10) − 2(p03 + p30) + 3(p31 + p13) − p33) / 9.
        let edge = { (a: SIMD2<Double>, b: SIMD2<Double>, bend: SIMD2<Double>) in [a, a + (b - a) / 3 + bend, a + 2 * (b - a) / 3 - bend, b] }
        let top = edge([0, 0], [3, 0.5], [0.2, 0.4]), bottom = edge([0.2, 3], [3.3, 2.8], [-0.3, 0.1])
        let left = edge([0, 0], [0.2, 3], [0.5, 0]), right = edge([3, 0.5], [3.3, 2.8], [0.1, -0.2])
        let patch = MeshPatch(top: top, bottom: bottom, left: left, right: right)
        let p = { (k: Int, l: Int) in patch.points[k * 4 + l] }
        var p11: SIMD2<Double> = -4 * p(0, 0)
        p11 += 6 * (p(0, 1) + p(1, 0))
        p11 -= 2 * (p(0, 3) + p(3, 0))
        p11 += 3 * (p(3, 1) + p(1, 3))
        p11 = (p11 - p(3, 3)) / 9
        XCTAssertEqual(p(1, 1).x, p11.x, accuracy: 1e-12); XCTAssertEqual(p(1, 1).y, p11.y, accuracy: 1e-12)
        var p22: SIMD2<Double> = -4 * p(3, 3)
        p22 += 6 * (p(3, 2) + p(2, 3))
        p22 -= 2 * (p(3, 0) + p(0, 3))
        p22 += 3 * (p(2, 0) + p(0, 2))
        p22 = (p22 - p(0, 0)) / 9
        XCTAssertEqual(p(2, 2).x, p22.x, accuracy: 1e-12); XCTAssertEqual(p(2, 2).y, p22.y, accuracy: 1e-12)
        // The edges are the given curves.
        XCTAssertEqual(patch.evaluate(u: 0.3, v: 0), cubic(top, 0.3))
        XCTAssertEqual(patch.evaluate(u: 1, v: 0.6), cubic(right, 0.6))
    }

    func cubic(_ c: [SIMD2<Double>], _ t: Double) -> SIMD2<Double> {
        let s = 1 - t
        return s * s * s * c[0] + 3 * s * s * t * c[1] + 3 * s * t * t * c[2] + t * t * t * c[3]
    }

    func testTessellationErrorUnderQuarterPixel() throws {
        let draw = try frameMesh(Self.curvedMesh, size: [1280, 720])
        let scene = try SceneLoader.decode("{\"layers\": [\(Self.curvedMesh)]}")
        guard let mesh = scene.layers[0].content as? MeshGradient else { return XCTFail() }
        let vertices = MeshDraw.vertices(mesh, seed: 1, time: 0)
        let patches = MeshGeometry.patches(vertices, width: 3, height: 3) { $0 * SIMD2(1280, 720) }
        // At the centroid and edge midpoints of every triangle, the linear interpolation of the
        // vertices is within 0.25 px of the true surface at the same (u, v).
        var worst = 0.0
        for t in stride(from: 0, to: draw.indices.count, by: 3) {
            let i = draw.indices[t..<t + 3].map(Int.init)
            let patch = patches[Int(draw.patches[i[0]])]
            for w in [SIMD3<Double>(1, 1, 1) / 3, [0.5, 0.5, 0], [0, 0.5, 0.5], [0.5, 0, 0.5]] {
                let uv = w[0] * SIMD2<Double>(draw.parameters[i[0]]) + w[1] * SIMD2<Double>(draw.parameters[i[1]]) + w[2] * SIMD2<Double>(draw.parameters[i[2]])
                let p = w[0] * SIMD2<Double>(draw.positions[i[0]]) + w[1] * SIMD2<Double>(draw.positions[i[1]]) + w[2] * SIMD2<Double>(draw.positions[i[2]])
                let d = patch.evaluate(u: uv.x, v: uv.y) - p
                worst = max(worst, (d * d).sum().squareRoot())
            }
        }
        XCTAssertLessThan(worst, 0.25)
        print("mesh tessellation: \(draw.indices.count / 3) triangles, worst sampled error \(worst) px")
    }

    // MARK: colour

    func testSmoothColoursAreC1AcrossSeams() throws {
        let draw = try frameMesh(Self.curvedMesh, size: [1280, 720])
        XCTAssertTrue(draw.smooth)
        let h: Float = 1e-3
        // Seam between patch 0 (u = 1) and patch 1 (u = 0), and between patch 0 (v = 1) and patch 2 (v = 0).
        for s in stride(from: Float(0), through: 1, by: 0.125) {
            let value0 = draw.interpolate(patch: 0, u: 1, v: s), value1 = draw.interpolate(patch: 1, u: 0, v: s)
            XCTAssertLessThan(maxAbs(value0 - value1), 1e-5, "continuous at v = \(s)")
            let left = (draw.interpolate(patch: 0, u: 1, v: s) - draw.interpolate(patch: 0, u: 1 - h, v: s)) / h
            let right = (draw.interpolate(patch: 1, u: h, v: s) - draw.interpolate(patch: 1, u: 0, v: s)) / h
            XCTAssertLessThan(maxAbs(left - right), 0.02, "∂/∂u continuous at v = \(s): \(left) vs \(right)")
            let above = (draw.interpolate(patch: 0, u: s, v: 1) - draw.interpolate(patch: 0, u: s, v: 1 - h)) / h
            let below = (draw.interpolate(patch: 2, u: s, v: h) - draw.interpolate(patch: 2, u: s, v: 0)) / h
            XCTAssertLessThan(maxAbs(above - below), 0.02, "∂/∂v continuous at u = \(s): \(above) vs \(below)")
        }
        // Bilinear colours are continuous but their derivative jumps at the seam (the Mach-band cross).
        let bilinear = try frameMesh(Self.curvedMesh.replacingOccurrences(of: "\"smoothsColors\": true", with: "\"smoothsColors\": false"), size: [1280, 720])
        let left = (bilinear.interpolate(patch: 0, u: 1, v: 0.5) - bilinear.interpolate(patch: 0, u: 1 - h, v: 0.5)) / h
        let right = (bilinear.interpolate(patch: 1, u: h, v: 0.5) - bilinear.interpolate(patch: 1, u: 0, v: 0.5)) / h
        XCTAssertGreaterThan(maxAbs(left - right), 0.1)
    }

    func testColoursAtCornersAndBilinearCentre() throws {
        let draw = try frameMesh(Self.curvedMesh.replacingOccurrences(of: "\"smoothsColors\": true", with: "\"smoothsColors\": false"), size: [100, 100])
        // Patch 0's corners are vertices 0, 1, 3, 4: red, yellow, blue, white.
        XCTAssertEqual(draw.color(patch: 0, u: 0, v: 0), RGBA.named("red")!.premultiplied)
        XCTAssertEqual(draw.color(patch: 0, u: 1, v: 1), [1, 1, 1, 1])
        let centre = (RGBA.named("red")!.premultiplied + RGBA.named("yellow")!.premultiplied
                      + RGBA.named("blue")!.premultiplied + RGBA.white.premultiplied) / 4
        XCTAssertLessThan(maxAbs(draw.color(patch: 0, u: 0.5, v: 0.5) - centre), 1e-6)
    }

    func maxAbs(_ v: SIMD4<Float>) -> Float { max(abs(v.x), abs(v.y), abs(v.z), abs(v.w)) }

    // MARK: fold rule

    func testFoldsShowLargerVThenLaterTriangles() throws {
        // Left and right edges run down to y = 0.75 and back up to 0.5: rows in 0.5…0.75 are covered
        // twice, and must show the colour of the larger v (nearer the blue bottom row).
        let draw = try frameMesh(Self.foldedMesh, size: [200, 200])
        let y = { (v: Double) -> Double in
            let s = 1 - v
            return 0.1 * s * s * s + 0.9 * 3 * s * s * v + 0.9 * 3 * s * v * v + 0.5 * v * v * v
        }
        // Triangle order: every triangle with larger v inside a patch comes later.
        var lastV: Float = -1
        for t in stride(from: 0, to: draw.indices.count, by: 6) {
            let v = draw.parameters[Int(draw.indices[t])].y
            XCTAssertGreaterThanOrEqual(v, lastV); lastV = v
        }
        // At y = 0.65 the two sheets have v ≈ 0.42 and v ≈ 0.9; the later one wins.
        var high = 1.0, low = 0.5
        for _ in 0..<60 { let mid = (high + low) / 2; if y(mid) > 0.65 { low = mid } else { high = mid } }
        XCTAssertGreaterThan(low, 0.8)
        XCTAssertEqual(draw.patches.first, 0)
        _ = draw
        // The colour a renderer shows there is checked in WelkinReferenceTests (MeshRasterTests).
    }

    // MARK: animation

    func testRandomWalkIsDeterministicAndStaysInRange() throws {
        let scene = try SceneLoader.load(path: Self.scenes + "/mesh-seed.json")
        guard let mesh = scene.layers[0].content as? MeshGradient, let walk = mesh.animation else { return XCTFail() }
        XCTAssertEqual(walk.interval, 1.0 / 9, accuracy: 1e-12)
        XCTAssertEqual(walk.spring, .bouncy)
        let start = mesh.startPositions
        XCTAssertEqual(walk.positions(start: start, seed: 1, at: 0), start)
        let times = [0.05, 1.5, 7, 7, 1.5, 30, 0.05]
        let first = times.map { walk.positions(start: start, seed: 1, at: $0) }
        // The same seed and time give the same positions, whatever was computed before.
        XCTAssertEqual(first[1], first[4]); XCTAssertEqual(first[2], first[3]); XCTAssertEqual(first[0], first[6])
        XCTAssertEqual(first[2], walk.positions(start: start, seed: 1, at: 7))
        XCTAssertNotEqual(walk.positions(start: start, seed: 2, at: 7), first[2], "another seed walks elsewhere")
        // Corners never move; fixed axes stay exactly on the frame edge.
        for p in first { for corner in [0, 2, 6, 8] { XCTAssertEqual(p[corner], start[corner]) } }
        for p in first { XCTAssertEqual(p[1].y, 0); XCTAssertEqual(p[3].x, 0); XCTAssertEqual(p[5].x, 1); XCTAssertEqual(p[7].y, 1) }
        // Long after the start, positions stay near their ranges (a spring overshoots a little).
        for k in 0..<200 {
            let p = walk.positions(start: start, seed: 1, at: 10 + Double(k) * 0.37)
            XCTAssertTrue((0.2 - 0.02...0.9 + 0.02).contains(p[1].x), "\(p[1])")
            XCTAssertTrue((0.3 - 0.02...0.8 + 0.02).contains(p[4].x) && (0.3 - 0.02...0.8 + 0.02).contains(p[4].y), "\(p[4])")
        }
        // Signs are balanced.
        let plus = (1...4000).filter { MeshRandomWalk.sign(seed: 1, vertex: 4, tick: $0, axis: 0) > 0 }.count
        XCTAssertTrue((1800...2200).contains(plus), "\(plus)")
        // Frames at the same time are equal.
        XCTAssertTrue(Frame.sameLayers(Frame(scene: scene, time: 7).layers, Frame(scene: scene, time: 7).layers))
    }

    func testSpringIsExactAndContinuous() {
        for spring in [MeshSpring.bouncy, .smooth, MeshSpring(duration: 0.3, bounce: -0.5)] {
            let once = spring.advance(position: 0.2, velocity: 1.5, target: 0.7, by: 0.35)
            let half = spring.advance(position: 0.2, velocity: 1.5, target: 0.7, by: 0.2)
            let twice = spring.advance(position: half.position, velocity: half.velocity, target: 0.7, by: 0.15)
            XCTAssertEqual(once.position, twice.position, accuracy: 1e-12)
            XCTAssertEqual(once.velocity, twice.velocity, accuracy: 1e-10)
            // Velocity is the derivative of position.
            let a = spring.advance(position: 0.2, velocity: 1.5, target: 0.7, by: 0.1)
            let b = spring.advance(position: 0.2, velocity: 1.5, target: 0.7, by: 0.1 + 1e-6)
            XCTAssertEqual((b.position - a.position) / 1e-6, a.velocity, accuracy: 1e-4)
            // It settles on the target.
            XCTAssertEqual(spring.advance(position: 0.2, velocity: 0, target: 0.7, by: 20).position, 0.7, accuracy: 1e-9)
        }
        // .bouncy overshoots; .smooth (critically damped) does not.
        let bouncy = (1...100).map { MeshSpring.bouncy.advance(position: 0, velocity: 0, target: 1, by: Double($0) / 100).position }
        XCTAssertGreaterThan(bouncy.max()!, 1.01)
        let smooth = (1...100).map { MeshSpring.smooth.advance(position: 0, velocity: 0, target: 1, by: Double($0) / 100).position }
        XCTAssertLessThanOrEqual(smooth.max()!, 1)
    }

    func testColourKeyframes() throws {
        let scene = try SceneLoader.decode("""
            {"layers": [{"type": "meshGradient", "width": 2, "height": 2, "smoothsColors": false,
              "points": [[0,0],[1,0],[0,1],[1,1]], "colors": ["black","black","black","black"],
              "colorKeyframes": [{"time": 2, "colors": ["white","white","white","white"]}]}]}
            """)
        func centre(_ t: Double) -> Float {
            guard let m = Frame(scene: scene, time: t).layers[0] as? MeshDraw else { return -1 }
            return m.color(patch: 0, u: 0.5, v: 0.5).x
        }
        XCTAssertEqual(centre(0), 0); XCTAssertEqual(centre(1), 0.5, accuracy: 1e-6)
        XCTAssertEqual(centre(2), 1); XCTAssertEqual(centre(9), 1)
    }

    // MARK: errors

    func error(_ layer: String) -> String { sceneError("{\"layers\": [\(layer)]}", file: "m.json") }

    func testErrors() {
        let p4 = "\"points\": [[0,0],[1,0],[0,1],[1,1]]"
        let c4 = "\"colors\": [\"red\",\"red\",\"red\",\"red\"]"
        let cases: [(String, String)] = [
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \"points\": [[0,0],[1,0],[0,1]], \(c4)}",
             "m.json: layers[0].points: expected 4 (width 2 × height 2) points, got 3"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \"colors\": [\"red\"]}",
             "m.json: layers[0].colors: expected 4 (width 2 × height 2) colors, got 1"),
            ("{\"type\": \"meshGradient\", \"width\": 1, \"height\": 2, \(p4), \(c4)}",
             "m.json: layers[0].width: expected a whole number of vertices in 2…64, got 1"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 0, \(p4), \(c4)}",
             "m.json: layers[0].height: expected a whole number of vertices in 2…64, got 0"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \"points\": [[0,0],[1,0],[0,1e999],[1,1]], \(c4)}",
             "m.json: layers[0].points[2][1]: expected a finite number, got inf"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \"points\": [[0,0],[1,0],[0,1],[11,1]], \(c4)}",
             "m.json: layers[0].points[3]: expected unit coordinates in −10…10, got [11, 1]"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(c4), \"bezierPoints\": [" +
             String(repeating: "{\"position\": [0,0], \"leading\": [0,0], \"top\": [0,0], \"trailing\": [0,0], \"bottom\": [0,0]},", count: 3) +
             "{\"position\": [0,0], \"leading\": [0,0], \"trailing\": [0,0], \"bottom\": [0,0]}]}",
             "m.json: layers[0].bezierPoints[3]: missing key 'top'"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(c4)}",
             "m.json: layers[0]: missing key 'points' (or 'bezierPoints'): 4 (width 2 × height 2) vertices"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"bezierPoints\": []}",
             "m.json: layers[0].bezierPoints: give either 'points' or 'bezierPoints', not both"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"smoothColors\": true}",
             "m.json: layers[0].smoothColors: unknown key 'smoothColors'; did you mean 'smoothsColors'?"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"animation\": {\"type\": \"randomWalk\", \"interval\": 0, \"step\": 0.01, \"ranges\": []}}",
             "m.json: layers[0].animation.interval: expected a number of seconds in 1/120…86400, got 0"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"animation\": {\"type\": \"randomWalk\", \"interval\": 1, \"step\": 0.01, \"ranges\": [{\"index\": 4}]}}",
             "m.json: layers[0].animation.ranges[0].index: expected a vertex index in 0…3, got 4"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"animation\": {\"type\": \"randomWalk\", \"interval\": 1, \"step\": 0.01, \"ranges\": [{\"index\": 1, \"x\": [0.9, 0.2]}]}}",
             "m.json: layers[0].animation.ranges[0].x: expected [min, max] with min ≤ max, got [0.9, 0.2]"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"animation\": {\"type\": \"randomWalk\", \"interval\": 1, \"step\": 0.01, \"ranges\": [], \"spring\": {\"duration\": 0.5, \"bounce\": 1}}}",
             "m.json: layers[0].animation.spring.bounce: expected a bounce in −0.99…0.99, got 1"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"colorKeyframes\": [{\"time\": 0, \"colors\": []}]}",
             "m.json: layers[0].colorKeyframes[0].time: expected a time in seconds after 0 (keyframes in increasing order; `colors` is time 0), got 0"),
            ("{\"type\": \"meshGradient\", \"width\": 2, \"height\": 2, \(p4), \(c4), \"colorKeyframes\": [{\"time\": 1, \"colors\": [\"red\"]}]}",
             "m.json: layers[0].colorKeyframes[0].colors: expected 4 (width 2 × height 2) colors, got 1"),
        ]
        for (json, expected) in cases { XCTAssertEqual(error(json), expected) }
    }

    // MARK: fixtures

    static let scenes = Repository.scenes.path

    static let curvedMesh = """
        {"type": "meshGradient", "width": 3, "height": 3, "smoothsColors": true,
         "points": [[0, 0], [0.3, 0], [1, 0], [0, 0.6], [0.45, 0.4], [1, 0.3], [0, 1], [0.7, 1], [1, 1]],
         "colors": ["red", "yellow", "green", "blue", "white", "orange", "indigo", "teal", "black"]}
        """

    /// Left and right edges fold back: y(v) has controls 0.1, 0.9, 0.9, 0.5.
    static let foldedMesh = try! String(contentsOfFile: Repository.fixtures.appendingPathComponent("folded-mesh-layer.json").path, encoding: .utf8)

    func frameMesh(_ layer: String, size: SIMD2<Int>) throws -> MeshDraw {
        let scene = try SceneLoader.decode("{\"size\": [\(size.x), \(size.y)], \"layers\": [\(layer)]}")
        guard let m = Frame(scene: scene, time: 0).layers[0] as? MeshDraw else { throw MeshFixtureError.noMeshLayer }
        return m
    }
}

/// A fixture scene without the mesh layer a test needs: a failure, never a skip.
enum MeshFixtureError: Error { case noMeshLayer }

/// A fixed-seed generator (SplitMix64), so these tests draw the same cases every run.
struct TestRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class MeshErrorBoundTests: XCTestCase {
    func testSimplexMaximumAgainstBruteForce() {
        var rng = TestRandom(state: 1)
        for _ in 0..<500 {
            let a = Double.random(in: 0...1, using: &rng), b = Double.random(in: 0...1, using: &rng), c = Double.random(in: 0...1, using: &rng)
            var best = 0.0
            for i in 0...200 {
                for j in 0...(200 - i) {
                    let x = Double(i) / 200, y = Double(j) / 200, z = 1 - x - y
                    best = max(best, x * y * a + x * z * b + y * z * c)
                }
            }
            let exact = MeshErrorBound.simplexMaximum(a, b, c)
            XCTAssertGreaterThanOrEqual(exact, best - 1e-12)
            XCTAssertLessThan(exact, best + 1e-4)
        }
        XCTAssertEqual(MeshErrorBound.simplexMaximum(1, 1, 1), 1.0 / 3, accuracy: 1e-15)
    }

    func testBoundHoldsOnRandomCurvedPatches() {
        // The bound must exceed the true error of the triangulation, found here by dense sampling;
        // at the steps the tessellation picks, the true error is under the target but not far
        // under it (a loose bound would tessellate needlessly finely).
        var rng = TestRandom(state: 2)
        for n in 0..<12 {
            let jitter = n < 6 ? 90.0 : 30.0
            let points = (0..<16).map { i in
                SIMD2<Double>(Double(i / 4) * 200, Double(i % 4) * 150)
                    + SIMD2(Double.random(in: -jitter...jitter, using: &rng), Double.random(in: -jitter...jitter, using: &rng))
            }
            let patch = MeshPatch(points: points)
            let bound = MeshErrorBound(patch)
            let (ku, kv) = MeshDraw.knots([patch], columns: 1, rows: 1)
            for (us, vs) in [(MeshDraw.uniformKnots(3), MeshDraw.uniformKnots(5)), (ku[0], kv[0])] {
                let nu = us.count - 1, nv = vs.count - 1
                var worst = 0.0
                for l in 0..<nv {
                    for k in 0..<nu {
                        let c = [(k, l), (k + 1, l), (k, l + 1), (k + 1, l + 1)].map { SIMD2(us[$0.0], vs[$0.1]) }
                        for tri in [(c[0], c[1], c[2]), (c[1], c[3], c[2])] {
                            let p = [tri.0, tri.1, tri.2].map { patch.evaluate(u: $0.x, v: $0.y) }
                            for i in 0...4 {
                                for j in 0...(4 - i) {
                                    let x = Double(i) / 4, y = Double(j) / 4, z = 1 - x - y
                                    let uv = x * tri.0 + y * tri.1 + z * tri.2
                                    let e = patch.evaluate(u: uv.x, v: uv.y) - (x * p[0] + y * p[1] + z * p[2])
                                    worst = max(worst, (e * e).sum().squareRoot())
                                }
                            }
                        }
                    }
                }
                XCTAssertGreaterThanOrEqual(bound.error(u: us, v: vs), worst, "\(nu)×\(nv)")
                if nu == 3 { XCTAssertGreaterThanOrEqual(bound.error(3, 5), worst) }
                if us == ku[0] {
                    XCTAssertLessThanOrEqual(worst, MeshDraw.target, "\(nu)×\(nv)")
                    XCTAssertGreaterThan(worst, MeshDraw.target / 4, "\(nu)×\(nv): needlessly fine")
                }
            }
        }
    }
}
