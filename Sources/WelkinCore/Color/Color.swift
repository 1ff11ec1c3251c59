// Colours as scene files write them: sRGB-encoded, straight (not premultiplied) alpha.

/// An sRGB-encoded colour with straight alpha, components in 0…1.
public struct RGBA: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r: Double, g: Double, b: Double, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public static let clear = RGBA(0, 0, 0, 0)
    public static let black = RGBA(0, 0, 0, 1)
    public static let white = RGBA(1, 1, 1, 1)

    /// Premultiplied components as a float vector (r·a, g·a, b·a, a).
    public var premultiplied: SIMD4<Float> {
        SIMD4(Float(r * a), Float(g * a), Float(b * a), Float(a))
    }
    public var vector: SIMD4<Float> { SIMD4(Float(r), Float(g), Float(b), Float(a)) }

    public var description: String {
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
