// Colours as scene files write them: sRGB-encoded, straight (not premultiplied) alpha; a colour
// written in another space (CSS's color(display-p3 …), color(srgb-linear …)) is held in extended
// sRGB (OutputColorSpace.swift) and keeps what the file said, for code export.

import Foundation

/// An sRGB-encoded colour with straight alpha. Components are in 0…1 for every sRGB form; a
/// `color(display-p3 …)` or `color(srgb-linear …)` outside sRGB's gamut is extended sRGB, below 0
/// or above 1 (as UIKit's extended sRGB).
public struct RGBA: Hashable, Sendable, Codable, CustomStringConvertible {
    public var r: Double, g: Double, b: Double, a: Double
    /// The space and components the scene file wrote, for colours written in `color()` with a
    /// space other than srgb (nil otherwise): code export says them back.
    public var written: WrittenColor? = nil
    /// As values: the components (how the scene wrote them is the scene's, not the model's).
    private enum CodingKeys: String, CodingKey { case r, g, b, a }

    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Two colours are equal when they are the same colour, however they were written.
    public static func == (x: RGBA, y: RGBA) -> Bool { x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a }
    public func hash(into hasher: inout Hasher) { hasher.combine(r); hasher.combine(g); hasher.combine(b); hasher.combine(a) }

    /// Whether every component is within sRGB's 0…1.
    public var isInSRGBGamut: Bool { [r, g, b].allSatisfy { (0...1).contains($0) } }
    public static let clear = RGBA(0, 0, 0, 0)
    public static let black = RGBA(0, 0, 0, 1)
    public static let white = RGBA(1, 1, 1, 1)

    /// Premultiplied components as a float vector (r·a, g·a, b·a, a).
    public var premultiplied: SIMD4<Float> {
        SIMD4(Float(r * a), Float(g * a), Float(b * a), Float(a))
    }
    public var vector: SIMD4<Float> { SIMD4(Float(r), Float(g), Float(b), Float(a)) }

    public var description: String {
        if let written { return written.css(alpha: a) }
        func h(_ v: Double) -> String {
            let i = Int((max(0, min(1, v)) * 255).rounded())
            return (i < 16 ? "0" : "") + String(i, radix: 16, uppercase: true)
        }
        return "#" + h(r) + h(g) + h(b) + (a < 1 ? h(a) : "")
    }

    /// SwiftUI's named colours, as the sRGB values of iOS's light-appearance system colours.
    /// Documented in docs/scene-format.md; keep the two in step.
    public static let named: [(name: String, color: RGBA)] = [
        ("red", .hex(0xFF3B30)), ("orange", .hex(0xFF9500)), ("yellow", .hex(0xFFCC00)),
        ("green", .hex(0x34C759)), ("mint", .hex(0x00C7BE)), ("teal", .hex(0x30B0C7)),
        ("cyan", .hex(0x32ADE6)), ("blue", .hex(0x007AFF)), ("indigo", .hex(0x5856D6)),
        ("purple", .hex(0xAF52DE)), ("pink", .hex(0xFF2D55)), ("brown", .hex(0xA2845E)),
        ("gray", .hex(0x8E8E93)), ("white", .white), ("black", .black), ("clear", .clear),
    ]

    static func hex(_ v: UInt32) -> RGBA {
        RGBA(Double((v >> 16) & 0xFF) / 255, Double((v >> 8) & 0xFF) / 255, Double(v & 0xFF) / 255, 1)
    }

    /// Parses `#RGB` (each digit doubled, as CSS), `#RRGGBB` or `#RRGGBBAA`; nil if malformed.
    public static func parseHex(_ text: String) -> RGBA? {
        guard text.hasPrefix("#") else { return nil }
        var digits = text.dropFirst()
        guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        if digits.count == 3 { digits = Substring(digits.flatMap { [$0, $0] }) }
        guard digits.count == 6 || digits.count == 8, let v = UInt32(digits, radix: 16) else { return nil }
        if digits.count == 6 { return hex(v) }
        return RGBA(Double(v >> 24) / 255, Double((v >> 16) & 0xFF) / 255,
                    Double((v >> 8) & 0xFF) / 255, Double(v & 0xFF) / 255)
    }

    public static func named(_ name: String) -> RGBA? {
        named.first(where: { $0.name == name })?.color
    }
}

/// A colour as written in CSS Color 4's `color()` with a space other than srgb.
public struct WrittenColor: Hashable, Sendable {
    /// A `color()` space Welkin reads.
    public enum Space: String, CaseIterable, Sendable {
        case srgb, srgbLinear = "srgb-linear", displayP3 = "display-p3"
    }
    public var space: Space
    /// The components in `space` (encoded for display-p3, linear light for srgb-linear), 0…1.
    public var components: SIMD3<Double>

    public init(space: Space, components: SIMD3<Double>) { self.space = space; self.components = components }

    /// `color(display-p3 1 0.3 0.1)`, with ` / a` when alpha is below 1.
    public func css(alpha: Double) -> String {
        func n(_ v: Double) -> String { String(format: "%.6g", v) }
        let body = [components.x, components.y, components.z].map(n).joined(separator: " ")
        return "color(\(space.rawValue) \(body)\(alpha < 1 ? " / " + n(alpha) : ""))"
    }
}
