import XCTest
@testable import WelkinCore

final class GradientTests: XCTestCase {
    let size = SIMD2<Int>(200, 100)

    func draw(_ shape: Gradient.Shape, _ stops: [GradientStop], space: ColorSpace = .srgb) -> GradientDraw {
        GradientDraw(Gradient(shape: shape, stops: stops), opacity: 1, sceneColorSpace: space,
                     pixelSize: size, scale: [1, 1])
    }

    let blackToWhite = [GradientStop(color: .black, location: 0), GradientStop(color: .white, location: 1)]

    func testLinearParameterAndPad() {
        let g = draw(.linear(start: [0.25, 0], end: [0.75, 0]), blackToWhite)
        XCTAssertEqual(g.parameter(at: [50, 7]), 0, accuracy: 1e-6)
        XCTAssertEqual(g.parameter(at: [100, 90]), 0.5, accuracy: 1e-6)
        XCTAssertEqual(g.parameter(at: [150, 0]), 1, accuracy: 1e-6)
        // Pad: beyond the ends the end colours repeat.
        XCTAssertEqual(g.color(at: [0.5, 0.5]), SIMD4(0, 0, 0, 1))
        XCTAssertEqual(g.color(at: [199.5, 0.5]), SIMD4(1, 1, 1, 1))
    }

    func testLinearIsolinesArePerpendicularInPixelSpace() {
        // Corner to corner on a 2:1 frame: the midpoint isoline passes through the centre and is
        // perpendicular to the diagonal in pixels, not in unit space.
        let g = draw(.linear(start: [0, 0], end: [1, 1]), blackToWhite)
        XCTAssertEqual(g.parameter(at: [100, 50]), 0.5, accuracy: 1e-6)
        // Moving along (−100·k... ) perpendicular to (200, 100), i.e. along (−1, 2), keeps t.
        XCTAssertEqual(g.parameter(at: [90, 70]), 0.5, accuracy: 1e-6)
    }

    func testHardStopTakesLaterColourAtTheEdge() {
        let stops = [GradientStop(color: .black, location: 0), GradientStop(color: .black, location: 0.5),
                     GradientStop(color: .white, location: 0.5), GradientStop(color: .white, location: 1)]
        let resolved = ResolvedStops(Gradient(shape: .linear(start: .zero, end: [1, 0]), stops: stops).stops, space: .srgb)
        XCTAssertEqual(resolved.evaluate(0.4999), SIMD4(0, 0, 0, 1))
        XCTAssertEqual(resolved.evaluate(0.5), SIMD4(1, 1, 1, 1))
    }

    func testStopsAreSortedStably() {
        let g = Gradient(shape: .linear(start: .zero, end: [1, 0]), stops: [
            GradientStop(color: .white, location: 1), GradientStop(color: .black, location: 0.5),
            GradientStop(color: RGBA(1, 0, 0), location: 0.5), GradientStop(color: .clear, location: 0)])
        XCTAssertEqual(g.stops.map(\.location), [0, 0.5, 0.5, 1])
        XCTAssertEqual(g.stops[1].color, .black)
        XCTAssertEqual(g.stops[2].color, RGBA(1, 0, 0))
    }

    func testInterpolationIsPremultiplied() {
        // Transparent red to opaque blue: halfway is premultiplied (0.25·… ), no red fringe.
        let stops = [GradientStop(color: RGBA(1, 0, 0, 0), location: 0), GradientStop(color: RGBA(0, 0, 1, 1), location: 1)]
        let resolved = ResolvedStops(stops, space: .srgb)
        XCTAssertEqual(resolved.evaluate(0.5), SIMD4(0, 0, 0.5, 0.5))
    }

    func testRadialAndZeroWidthRing() {
        let g = draw(.radial(center: [0.5, 0.5], startRadius: 10, endRadius: 30), blackToWhite)
        XCTAssertEqual(g.parameter(at: [100, 50]), -0.5, accuracy: 1e-6)
        XCTAssertEqual(g.parameter(at: [120, 50]), 0.5, accuracy: 1e-6)
        XCTAssertEqual(g.parameter(at: [100, 80]), 1, accuracy: 1e-6)
        let hard = draw(.radial(center: [0.5, 0.5], startRadius: 20, endRadius: 20), blackToWhite)
        XCTAssertEqual(hard.color(at: [100, 69.5]), SIMD4(0, 0, 0, 1))
        XCTAssertEqual(hard.color(at: [100, 70.5]), SIMD4(1, 1, 1, 1))
    }

    func testEllipticalUsesFrameFractions() {
        let g = draw(.elliptical(center: [0.5, 0.5], startRadiusFraction: 0, endRadiusFraction: 0.5), blackToWhite)
        // The ellipse t = 1 touches the frame's edges: x = 0 on the centre row, y = 0 on the centre column.
        XCTAssertEqual(g.parameter(at: [0, 50]), 1, accuracy: 1e-6)
        XCTAssertEqual(g.parameter(at: [100, 0]), 1, accuracy: 1e-6)
        XCTAssertEqual(g.parameter(at: [150, 50]), 0.5, accuracy: 1e-6)
        XCTAssertEqual(g.parameter(at: [100, 25]), 0.5, accuracy: 1e-6)
    }

    func testAngularClockwiseOnScreen() {
        let g = draw(.angular(center: [0.5, 0.5], startAngle: 0, endAngle: 360), blackToWhite)
        XCTAssertEqual(g.parameter(at: [150, 50]), 0, accuracy: 1e-6)      // +x
        XCTAssertEqual(g.parameter(at: [100, 90]), 0.25, accuracy: 1e-6)   // below the centre: clockwise
        XCTAssertEqual(g.parameter(at: [60, 50.0001]), 0.5, accuracy: 1e-4)
        XCTAssertEqual(g.parameter(at: [100, 10]), 0.75, accuracy: 1e-6)   // above
    }

    func testAngularWrapFillsMissingWedgeWithEndColours() {
        // 0°…90°: the missing 270° wedge switches from the end colour to the start colour halfway (at 225°).
        func t(_ degrees: Float) -> Float {
            GradientDraw.angularParameter(angle: degrees * .pi / 180, start: 0, span: .pi / 2)
        }
        XCTAssertEqual(t(45), 0.5, accuracy: 1e-6)
        XCTAssertEqual(t(100), 1)
        XCTAssertEqual(t(220), 1)
        XCTAssertEqual(t(230), 0)
        XCTAssertEqual(t(-10), 0)
        // A start angle past a full turn wraps.
        XCTAssertEqual(GradientDraw.angularParameter(angle: .pi / 4, start: 2 * .pi, span: .pi / 2), 0.5, accuracy: 1e-5)
    }

    func testAngularMoreThanOneTurnShowsTheLastTurn() {
        // 0°…540°: angle 90° is reached at 90° and again at 450°; the last turn wins → t = 450/540.
        let t = GradientDraw.angularParameter(angle: .pi / 2, start: 0, span: 3 * .pi)
        XCTAssertEqual(t, 450.0 / 540.0, accuracy: 1e-5)
    }

    func testAngularCounterClockwise() {
        let t = GradientDraw.angularParameter(angle: -.pi / 2, start: 0, span: -.pi)
        XCTAssertEqual(t, 0.5, accuracy: 1e-6)
    }

    func testDegenerateLinearIsTheFirstColour() {
        let g = draw(.linear(start: [0.5, 0.5], end: [0.5, 0.5]), blackToWhite)
        XCTAssertEqual(g.color(at: [3, 3]), SIMD4(0, 0, 0, 1))
    }

    func testOpacityScalesPremultipliedColour() {
        let g = GradientDraw(Gradient(shape: .linear(start: .zero, end: [1, 0]), stops: blackToWhite), opacity: 0.5,
                             sceneColorSpace: .srgb, pixelSize: size, scale: [1, 1])
        XCTAssertEqual(g.color(at: [300, 0]), SIMD4(0.5, 0.5, 0.5, 0.5))
    }

    func testColorSpacesDifferInTheMiddleOnly() {
        let stops = [GradientStop(color: RGBA(1, 0, 0), location: 0), GradientStop(color: RGBA(0, 0, 1), location: 1)]
        let srgb = ResolvedStops(stops, space: .srgb).evaluate(0.5)
        let linear = ResolvedStops(stops, space: .linearSRGB).evaluate(0.5)
        let oklab = ResolvedStops(stops, space: .oklab).evaluate(0.5)
        XCTAssertEqual(srgb.x, 0.5, accuracy: 1e-6)
        XCTAssertEqual(linear.x, ColorMath.linearToSRGB(0.5), accuracy: 1e-5)
        XCTAssertGreaterThan(oklab.x, 0.5)  // OKLab keeps the midpoint bright (purple, not murky)
        for space in ColorSpace.allCases {
            XCTAssertEqual(ResolvedStops(stops, space: space).evaluate(0).x, 1, accuracy: 1e-5)
            XCTAssertEqual(ResolvedStops(stops, space: space).evaluate(1).z, 1, accuracy: 1e-5)
        }
    }

    func testFrameScalesPointsToPixels() throws {
        let scene = try SceneLoader.decode("""
        {"size": [100, 50], "layers": [{"type": "radialGradient", "startRadius": 0, "endRadius": 10,
          "stops": ["black", "white"]}]}
        """)
        let frame = Frame(scene: scene, time: 0, pixelSize: [200, 100])
        guard let g = frame.layers[0] as? GradientDraw else { return XCTFail() }
        // 10 points = 20 pixels at 2×.
        XCTAssertEqual(g.parameter(at: [120, 50]), 1, accuracy: 1e-6)
        XCTAssertEqual(frame.scale, [2, 2])
    }
}
