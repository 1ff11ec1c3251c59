// The animation model (issue 26): SwiftUI's and Core Animation's timing curves and springs with
// their published maths, repeats and autoreverse, and the `{from, to, animation}` form's decoding.

import Foundation
import XCTest
import WelkinCore

final class AnimationTests: XCTestCase {
    func scene(_ property: String) throws -> Scene {
        try SceneLoader.decode(#"{"layers": [{"type": "text", "string": "Hi", "size": 20, "shadow": {"radius": \#(property)}}]}"#, file: "a.json")
    }

    func radius(_ property: String) throws -> Animated<Double> {
        let s = try scene(property)
        return try XCTUnwrap(s.layers[0].shadow, "no shadow").radius
    }

    /// Spring(duration: 0.5, bounce: 0.3) from 0 to 1 against the damped oscillator written out:
    /// 1 − e^(−ζωt)(cos ω_d t + ζω/ω_d sin ω_d t), ω = 2π/0.5, ζ = 0.7, at 50 times.
    func testSpringMatchesTheDampedOscillator() throws {
        let animated = try radius(#"{"from": 0, "to": 1, "animation": {"spring": {"duration": 0.5, "bounce": 0.3}}}"#)
        let w = 2 * Double.pi / 0.5, z = 0.7, wd = w * (1 - z * z).squareRoot()
        var worst = 0.0
        for i in 0..<50 {
            let t = Double(i) * 0.03
            let expected = 1 - exp(-z * w * t) * (cos(wd * t) + z * w / wd * sin(wd * t))
            worst = max(worst, abs(animated.value(at: t) - expected))
        }
        print("spring (0.5, 0.3): largest difference from the oscillator over 50 times \(worst)")
        XCTAssertLessThan(worst, 1e-3)
        // The other parameter sets: response/dampingFraction and CASpringAnimation's.
        let older = Timing.spring(response: 0.5, dampingFraction: 0.7)
        XCTAssertEqual(older.progress(0.2), Timing.spring(duration: 0.5, bounce: 0.3).progress(0.2), accuracy: 1e-12)
        let ca = Timing.spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
        // ω₀ = 10, ζ = 0.5: x(t) = e^(−5t)(cos ω_d t + 5/ω_d sin ω_d t).
        let cwd = 10 * (0.75).squareRoot()
        XCTAssertEqual(ca.progress(0.3), 1 - exp(-1.5) * (cos(cwd * 0.3) + 5 / cwd * sin(cwd * 0.3)), accuracy: 1e-12)
        XCTAssertEqual(ca.duration, ca.settlingDuration)
        XCTAssertTrue((1.2...1.6).contains(ca.settlingDuration), "CASpringAnimation's default settles in about 1.4 s: \(ca.settlingDuration)")
        // Critically damped and overdamped springs do not overshoot.
        for bounce in [0.0, -0.5] {
            let s = Timing.spring(duration: 0.5, bounce: bounce)
            XCTAssertTrue(stride(from: 0.0, through: 3, by: 0.01).allSatisfy { s.progress($0) <= 1 + 1e-12 }, "bounce \(bounce)")
            XCTAssertEqual(s.progress(3), 1, accuracy: 1e-3)
        }
    }

    /// easeInOut over 1 s against the cubic Bézier (0.42, 0, 0.58, 1), solved here by Newton's method.
    func testEaseInOutMatchesItsBezier() throws {
        let animated = try radius(#"{"from": 0, "to": 1, "animation": {"easeInOut": {"duration": 1}}}"#)
        func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
        var worst = 0.0
        for i in 0...50 {
            let x = Double(i) / 50
            var s = x
            for _ in 0..<30 {
                let dx = 3 * (1 - s) * (1 - s) * 0.42 + 6 * (1 - s) * s * (0.58 - 0.42) + 3 * s * s * (1 - 0.58)
                if dx > 1e-9 { s -= (bezier(s, 0.42, 0.58) - x) / dx }
                s = min(max(s, 0), 1)
            }
            worst = max(worst, abs(animated.value(at: x) - bezier(s, 0, 1)))
        }
        print("easeInOut: largest difference from the Bézier over 51 times \(worst)")
        XCTAssertLessThan(worst, 1e-3)
        // The other named curves' control points.
        XCTAssertEqual(Timing.easeIn(1), .curve(x1: 0.42, y1: 0, x2: 1, y2: 1, duration: 1))
        XCTAssertEqual(Timing.easeOut(1), .curve(x1: 0, y1: 0, x2: 0.58, y2: 1, duration: 1))
        XCTAssertEqual(try radius(#"{"from": 0, "to": 2, "animation": "linear"}"#).value(at: 0.175), 1, accuracy: 1e-9, "linear takes SwiftUI's 0.35 s")
    }

    /// "repeat": "forever", "autoreverses": true is back at the start after two passes, continuously.
    func testRepeatForeverAutoreversesReturnsToTheStart() throws {
        let a = try radius(#"{"from": 2, "to": 6, "animation": {"easeInOut": {"duration": 0.5}}, "repeat": "forever", "autoreverses": true}"#)
        XCTAssertEqual(a.value(at: 0), 2); XCTAssertEqual(a.value(at: 0.5), 6, accuracy: 1e-9)
        XCTAssertEqual(a.value(at: 1.0), 2, accuracy: 1e-9); XCTAssertEqual(a.value(at: 1.5), 6, accuracy: 1e-9)
        XCTAssertEqual(a.value(at: 20.0), 2, accuracy: 1e-9)
        XCTAssertEqual(a.value(at: 0.75), a.value(at: 0.25), accuracy: 1e-9, "the reverse pass plays the forward one backwards")
        // A count of passes holds where the last one ended; delay and speed shift and scale time.
        let counted = try radius(#"{"from": 0, "to": 1, "animation": "linear", "repeat": 3, "autoreverses": true, "delay": 1, "speed": 2}"#)
        XCTAssertEqual(counted.value(at: 1), 0)
        XCTAssertEqual(counted.value(at: 1 + 0.175 / 2), 0.5, accuracy: 1e-9)
        XCTAssertEqual(counted.value(at: 100), 1, accuracy: 1e-9, "three passes end going forward")
        let twice = try radius(#"{"from": 0, "to": 1, "animation": "linear", "repeat": 2}"#)
        XCTAssertEqual(twice.value(at: 0.35 + 0.175), 0.5, accuracy: 1e-9, "without autoreverse a pass starts again from the start")
    }

    /// Seed 001's `.snappy(duration: 0.66, extraBounce: 15)` asks for a bounce of 15.15: clamped to
    /// the documented 1 (undamped, period 0.66 s) with a warning naming the path.
    func testABounceBeyondTheRangeIsClampedWithAWarning() throws {
        let s = try scene(#"{"from": 0, "to": 1, "animation": {"snappy": {"duration": 0.66, "extraBounce": 15}}, "repeat": "forever", "autoreverses": true}"#)
        XCTAssertEqual(s.warnings.map(\.description),
                       ["a.json: layers[0].shadow.radius.animation: warning: snappy's bounce 0.15 + extraBounce 15 = 15.15 is beyond SwiftUI's documented −1…1; Welkin clamps it to 1"])
        let r = s.layers[0].shadow!.radius
        XCTAssertEqual(r.value(at: 0.33), 2, accuracy: 1e-9, "undamped: half a period out, twice the distance")
        XCTAssertEqual(r.value(at: 0.66), 0, accuracy: 1e-9)
    }

    func testKeyframesTakeAnyCurveAndPerSegmentEasings() throws {
        let k = try radius(#"{"keyframes": [[0, 0, "easeIn"], [1, 10], [2, 0, {"timingCurve": {"controlPoints": [0, 0, 1, 1]}}], [3, 10]], "easing": "easeOut"}"#)
        XCTAssertEqual(k.value(at: 0.5), 10 * Timing.easeIn(1).progress(0.5), accuracy: 1e-9)
        XCTAssertEqual(k.value(at: 1.5), 10 - 10 * Timing.easeOut(1).progress(0.5), accuracy: 1e-9)
        XCTAssertEqual(k.value(at: 2.5), 5, accuracy: 1e-6)
    }

    func testErrorsNameThePath() throws {
        func message(_ json: String) -> String {
            do { _ = try scene(json); return "no error" } catch { return "\(error)" }
        }
        XCTAssertEqual(message(#"{"from": 0, "to": 1, "animation": {"easeIn": {}, "spring": {}}}"#),
                       "a.json: layers[0].shadow.radius.animation: expected one animation, got easeIn and spring")
        XCTAssertEqual(message(#"{"from": 0, "to": 1, "animation": {"timingCurve": {"controlPoints": [1.5, 0, 0.5, 1]}}}"#),
                       "a.json: layers[0].shadow.radius.animation.timingCurve: controlPoints[0] is an x coordinate and must be in 0…1, got 1.5")
        XCTAssertEqual(message(#"{"from": 0, "to": 1, "animation": {"spring": {"bounce": 0.2, "response": 1}}}"#),
                       "a.json: layers[0].shadow.radius.animation.spring: a spring takes one set of parameters: duration + bounce, response + dampingFraction, or mass + stiffness + damping")
        XCTAssertTrue(message(#"{"from": 0, "to": 1, "repeat": 0}"#).hasPrefix("a.json: layers[0].shadow.radius.repeat: "), message(#"{"from": 0, "to": 1, "repeat": 0}"#))
        XCTAssertTrue(message(#"{"from": 0, "to": 1, "animation": "wobbly"}"#).hasPrefix("a.json: layers[0].shadow.radius.animation: "))
        XCTAssertTrue(message(#"{"from": 0}"#).contains("to"), message(#"{"from": 0}"#))
    }

    /// Every layer's opacity animates: a fade is resolved per frame, in groups too.
    func testLayerOpacityAnimates() throws {
        let s = try SceneLoader.decode("""
            {"size": [8, 8], "layers": [
              {"type": "linearGradient", "stops": ["red", "blue"], "opacity": {"from": 0, "to": 1, "animation": {"linear": {"duration": 2}}}},
              {"type": "group", "layers": [{"type": "linearGradient", "stops": ["red", "blue"],
                "opacity": {"keyframes": [[0, 1], [1, 0.5]]}}]}]}
            """, file: "fade.json")
        XCTAssertEqual(s.layers[0].opacity, 0, "the file's value at time 0")
        XCTAssertEqual(s.layers[0].at(1).opacity, 0.5, accuracy: 1e-12)
        XCTAssertEqual(s.layers[0].at(5).opacity, 1)
        let frame = Frame(scene: s, time: 1)
        let gradient = try XCTUnwrap(frame.layers[0] as? GradientDraw)
        XCTAssertEqual(gradient.opacity, 0.5, accuracy: 1e-6)
        let group = try XCTUnwrap(frame.layers[1] as? GroupDraw)
        XCTAssertEqual(try XCTUnwrap(group.layers[0] as? GradientDraw).opacity, 0.5, accuracy: 1e-6)
    }
}
