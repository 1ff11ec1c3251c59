// The Swift that exported files carry with them: self-contained copies of Welkin's maths.
//
// An exported file must not depend on Welkin, so the few functions it needs at run time (colour
// spaces, the mesh's random walk and spring, the sprites' coverage, the sun and the sky palette)
// are written out into it. Each snippet is the twin of the WelkinCore function it names, with the
// same formulas, constants and order of operations, and RuntimeTwinTests runs the snippets
// against WelkinCore to hold them to the same numbers. The snippets marked "pure" use only
// Foundation; the others need CoreGraphics, SwiftUI or Core Animation.
//
// This file holds the snippet type, the list and the colour snippets every kind shares; each kind's
// own snippets sit beside its exporter (GradientRuntime, MeshRuntime, EmitterRuntime, SkyRuntime).

/// One snippet of runtime support, emitted at most once per file.
struct RuntimeSnippet: Hashable, Comparable {
    let name: String
    /// Emission order (dependencies first).
    let order: Int
    /// Snippets this one uses.
    let requires: [String]
    /// Only Foundation: the twin tests compile and run these on Linux.
    let pure: Bool
    let source: String

    static func < (a: RuntimeSnippet, b: RuntimeSnippet) -> Bool { a.order < b.order }
    static func == (a: RuntimeSnippet, b: RuntimeSnippet) -> Bool { a.name == b.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

enum RuntimeSupport {
    static let all: [RuntimeSnippet] = [rgba, colorMath, gradientStops, swiftUIColor, cgColor, caGradient, platformY,
                                        spring, randomWalk, meshColors, sprite, spriteImage, emitterView, particleSimulation,
                                        particleCanvas, sun, skyPalette,
                                        weatherTint, sky, keyframes, transition, clock, colorMix]

    static func snippet(_ name: String) -> RuntimeSnippet {
        guard let s = all.first(where: { $0.name == name }) else { preconditionFailure("no runtime snippet \(name)") }
        return s
    }

    /// `names` and everything they require, in emission order.
    static func closure(_ names: Set<String>) -> [RuntimeSnippet] {
        var seen = Set<String>()
        var stack = Array(names)
        while let n = stack.popLast() {
            guard seen.insert(n).inserted else { continue }
            stack += snippet(n).requires
        }
        return seen.map(snippet).sorted()
    }

    // MARK: colour

    static let rgba = RuntimeSnippet(name: "rgba", order: 0, requires: [], pure: true, source: #"""
    /// An sRGB colour with straight alpha (Welkin's RGBA): components 0…1, or beyond them for a
    /// colour the scene wrote in Display P3 (extended sRGB, as SwiftUI's Color(.sRGB, …) takes it).
    private struct WelkinRGBA: Sendable, Equatable {
        var r: Double, g: Double, b: Double, a: Double
        init(_ r: Double, _ g: Double, _ b: Double, _ a: Double) { self.r = r; self.g = g; self.b = b; self.a = a }
    }
    """#)

    static let colorMath = RuntimeSnippet(name: "colorMath", order: 1, requires: ["rgba"], pure: true, source: #"""
    /// Where colours are interpolated (Welkin's ColorSpace).
    private enum WelkinColorSpace: Sendable { case srgb, linearSRGB, oklab }

    /// Twin of Welkin's ColorMath (Sources/WelkinSkyModel/Color/ColorSpace.swift): the same formulas and
    /// constants, in Float as there.
    private enum WelkinColorMath {
        static func srgbToLinear(_ c: Float) -> Float {
            let a = abs(c)
            let v = a <= 0.04045 ? a / 12.92 : powf((a + 0.055) / 1.055, 2.4)
            return c < 0 ? -v : v
        }

        static func linearToSRGB(_ c: Float) -> Float {
            let a = abs(c)
            let v = a <= 0.0031308 ? a * 12.92 : 1.055 * powf(a, 1 / 2.4) - 0.055
            return c < 0 ? -v : v
        }

        static func srgbToLinear(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3(srgbToLinear(c.x), srgbToLinear(c.y), srgbToLinear(c.z)) }
        static func linearToSRGB(_ c: SIMD3<Float>) -> SIMD3<Float> { SIMD3(linearToSRGB(c.x), linearToSRGB(c.y), linearToSRGB(c.z)) }

        /// Linear sRGB → OKLab (Björn Ottosson).
        static func linearToOklab(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let l = 0.4122214708 * c.x + 0.5363325363 * c.y + 0.0514459929 * c.z
            let m = 0.2119034982 * c.x + 0.6806995451 * c.y + 0.1073969566 * c.z
            let s = 0.0883024619 * c.x + 0.2817188376 * c.y + 0.6299787005 * c.z
            let l_ = cbrtf(l), m_ = cbrtf(m), s_ = cbrtf(s)
            return SIMD3(0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                         1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                         0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)
        }

        /// OKLab → linear sRGB.
        static func oklabToLinear(_ c: SIMD3<Float>) -> SIMD3<Float> {
            let l_ = c.x + 0.3963377774 * c.y + 0.2158037573 * c.z
            let m_ = c.x - 0.1055613458 * c.y - 0.0638541728 * c.z
            let s_ = c.x - 0.0894841775 * c.y - 1.2914855480 * c.z
            let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
            return SIMD3(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                         -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                         -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
        }

        /// A straight-alpha sRGB colour → premultiplied components in `space`.
        static func toInterpolationSpace(_ c: WelkinRGBA, _ space: WelkinColorSpace) -> SIMD4<Float> {
            let rgb = SIMD3<Float>(Float(c.r), Float(c.g), Float(c.b))
            let a = Float(c.a)
            let v: SIMD3<Float>
            switch space {
            case .srgb: v = rgb
            case .linearSRGB: v = srgbToLinear(rgb)
            case .oklab: v = linearToOklab(srgbToLinear(rgb))
            }
            return SIMD4(v * a, a)
        }

        /// Premultiplied components in `space` → premultiplied sRGB.
        static func fromInterpolationSpace(_ p: SIMD4<Float>, _ space: WelkinColorSpace) -> SIMD4<Float> {
            if space == .srgb { return p }
            let a = p.w
            if a <= 0 { return .zero }
            let v = SIMD3(p.x, p.y, p.z) / a
            let rgb: SIMD3<Float>
            switch space {
            case .srgb: rgb = v
            case .linearSRGB: rgb = linearToSRGB(v)
            case .oklab: rgb = linearToSRGB(oklabToLinear(v))
            }
            // Not clamped: extended sRGB, as Welkin's working space (SwiftUI and Core Graphics clip on screen).
            return SIMD4(rgb * a, a)
        }

        /// Premultiplied sRGB → a straight-alpha colour; a transparent one takes `fallback`'s hue.
        static func straight(_ p: SIMD4<Float>, fallback: WelkinRGBA) -> WelkinRGBA {
            guard p.w > 0 else { return WelkinRGBA(fallback.r, fallback.g, fallback.b, 0) }
            let c = SIMD3(p.x, p.y, p.z) / p.w
            return WelkinRGBA(Double(c.x), Double(c.y), Double(c.z), Double(min(p.w, 1)))
        }
    }
    """#)

    static let swiftUIColor = RuntimeSnippet(name: "swiftUIColor", order: 3, requires: ["rgba"], pure: false, source: #"""
    extension WelkinRGBA {
        var color: Color { Color(.sRGB, red: r, green: g, blue: b, opacity: a) }
    }

    private func welkinStops(_ stops: [(location: Double, color: WelkinRGBA)]) -> [Gradient.Stop] {
        stops.map { Gradient.Stop(color: $0.color.color, location: CGFloat($0.location)) }
    }
    """#)

    static let cgColor = RuntimeSnippet(name: "cgColor", order: 4, requires: ["rgba"], pure: false, source: #"""
    extension WelkinRGBA {
        var cgColor: CGColor { CGColor(srgbRed: CGFloat(r), green: CGFloat(g), blue: CGFloat(b), alpha: CGFloat(a)) }
    }
    """#)

    static let platformY = RuntimeSnippet(name: "platformY", order: 6, requires: [], pure: false, source: #"""
    #if canImport(UIKit)
    /// UIKit's layers put y down, as Welkin does.
    private let welkinYDown: CGFloat = 1
    #else
    /// AppKit's layers put y up: positions, angles, vertical accelerations and spins are mirrored.
    private let welkinYDown: CGFloat = -1
    #endif

    /// A point of Welkin's unit space (y down) in this platform's unit layer space.
    private func welkinUnitPoint(_ x: Double, _ y: Double) -> CGPoint {
        CGPoint(x: CGFloat(x), y: welkinYDown > 0 ? CGFloat(y) : 1 - CGFloat(y))
    }

    /// A point of Welkin's unit space in `bounds`, in points.
    private func welkinPoint(_ x: Double, _ y: Double, in bounds: CGRect) -> CGPoint {
        let p = welkinUnitPoint(x, y)
        return CGPoint(x: bounds.minX + p.x * bounds.width, y: bounds.minY + p.y * bounds.height)
    }
    """#)
}
