// Shadows: SwiftUI's .shadow(color:radius:x:y:) for any layer that can sit in a group — a Gaussian
// blur of the layer's alpha, tinted, offset, drawn under the layer.

import Foundation

/// A layer's `shadow`.
public struct Shadow: Sendable, Equatable {
    /// Straight sRGB; its alpha multiplies the shadow (SwiftUI's default: black at 33 %).
    public var color: Animated<RGBA> = .constant(Shadow.defaultColor)
    /// SwiftUI's radius, points: the Gaussian's standard deviation is half of it.
    public var radius: Animated<Double> = .constant(10)
    /// Points, y down.
    public var offset: SIMD2<Double> = .zero
    public var opacity: Animated<Double> = .constant(1)

    public init() {}

    /// SwiftUI's default shadow colour: black, 33 % opaque.
    public static let defaultColor = RGBA(0, 0, 0, 0.33)
    /// The largest radius, points.
    public static let maximumRadius = 64.0
    public static let maximumOffset = 1000.0
}

extension Shadow {
    public static let properties: PropertyTable = {
        let d = Shadow()
        return PropertyTable("shadow", title: "shadow",
            "A shadow under a layer or a group: its alpha blurred (a Gaussian, σ = radius / 2), tinted and offset (docs/text-and-masks.md). Colour, radius and opacity may be keyframes.", [
            Property("color", KeyframeTables.colorType, default: .color(Shadow.defaultColor), animatable: true,
                     "The shadow's colour; its alpha multiplies the shadow (SwiftUI's default: black at 33 %)."),
            Property("radius", KeyframeTables.numberType(0...maximumRadius), default: .number(10), unit: "pt", animatable: true,
                     "SwiftUI's shadow radius: the blur's standard deviation is half of it."),
            Property("offset", .pair(-maximumOffset...maximumOffset), default: .point(d.offset), unit: "pt",
                     "[x, y]: how far the shadow is moved (y down), rounded to whole pixels."),
            Property("opacity", KeyframeTables.numberType(0...1), default: .number(1), animatable: true,
                     "Multiplies the shadow's alpha (keyframes make it pulse)."),
        ])
    }()

    /// The property layer kinds that can cast a shadow add to their tables.
    static let property = Property("shadow", .object(properties),
                                   "A blurred, tinted copy of the layer's alpha drawn under it (docs/text-and-masks.md).")
        .withDefaultJSON(JSONValue(.object([])))   // the panel offers its keys; an edit writes only what changed

    static func decode(_ node: Node) throws -> Shadow {
        let o = try node.object(properties)
        try o.checkKeys()
        var s = Shadow()
        if let v = try o.animatedColor("color") { s.color = v }
        if let v = try o.animatedNumber("radius") { s.radius = v }
        if let v = try o.pair("offset") { s.offset = v }
        if let v = try o.animatedNumber("opacity") { s.opacity = v }
        return s
    }
}

/// A shadow at one instant, in pixels: what both renderers draw.
///
/// The blur is separable: a horizontal pass over the alpha, then a vertical pass over that. Each
/// kernel holds whole multiples of 1/65536 (`weightScale`) that sum to exactly 1, so the weights
/// are exact in Float on both paths; taps outside the frame read alpha 0.
public struct ShadowDraw: Sendable, Equatable {
    /// Premultiplied sRGB, the shadow's opacity applied.
    public var color: SIMD4<Float>
    /// Whole pixels, y down.
    public var offset: SIMD2<Int32>
    /// Kernel halves: weights[0] is the centre, weights[k] the taps at ±k. Horizontal, vertical.
    public var horizontalWeights: [Float]
    public var verticalWeights: [Float]

    /// The denominator of every kernel weight.
    public static let weightScale = 65536
    /// The most taps on either side of the centre (the shader's uniform array holds one more).
    public static let maximumTaps = 192

    /// The shadow at `time`; an animated colour moves in `space` (the scene's colour space).
    public init(_ shadow: Shadow, time: Double, scale: SIMD2<Double>, space: ColorSpace = .srgb) {
        let c = shadow.color.value(at: time, in: space)
        let opacity = min(max(shadow.opacity.value(at: time), 0), 1)
        color = c.premultiplied * Float(opacity)
        offset = SIMD2(Int32((shadow.offset.x * scale.x).rounded()), Int32((shadow.offset.y * scale.y).rounded()))
        let radius = min(max(shadow.radius.value(at: time), 0), Shadow.maximumRadius)
        horizontalWeights = Self.kernel(sigma: radius * scale.x / 2)
        verticalWeights = Self.kernel(sigma: radius * scale.y / 2)
    }

    /// One half of a normalised Gaussian kernel reaching 3σ (at most `maximumTaps`): integer weights
    /// in 65536ths that sum, over both halves, to exactly 65536 — each rounded down, then the units
    /// left over handed out by largest remainder (a pair of side taps takes two, the centre one).
    public static func kernel(sigma: Double) -> [Float] {
        guard sigma >= 0.05 else { return [1] }
        let taps = min(Int((3 * sigma).rounded(.up)), maximumTaps)
        let gauss = (0...taps).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let total = gauss[0] + 2 * gauss.dropFirst().reduce(0, +)
        let exact = gauss.map { $0 / total * Double(weightScale) }
        var weights = exact.map { Int($0.rounded(.down)) }
        var left = weightScale - weights[0] - 2 * weights.dropFirst().reduce(0, +)
        for k in exact.indices.sorted(by: { (exact[$0] - Double(weights[$0]), -$0) > (exact[$1] - Double(weights[$1]), -$1) }) {
            let cost = k == 0 ? 1 : 2
            if left >= cost { weights[k] += 1; left -= cost }
        }
        weights[0] += left
        while weights.count > 1 && weights[weights.count - 1] == 0 { weights.removeLast() }
        return weights.map { Float($0) / Float(weightScale) }
    }
}
