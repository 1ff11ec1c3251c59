// The runtime exported emitters carry (EmitterExport.swift writes the code that calls it): the
// sprites' coverage and images, and the view that hosts a CAEmitterLayer. Twins of WelkinCore's
// sprite maths, held to it by RuntimeTwinTests (RuntimeSupport.swift says how).

extension RuntimeSupport {
    static let sprite = RuntimeSnippet(name: "sprite", order: 20, requires: [], pure: true, source: #"""
    /// Welkin's procedural sprites.
    private enum WelkinSpriteKind: Sendable { case dot, softDot, flake, streak, cloud }

    /// Twin of Welkin's SpriteShape (Sources/WelkinCore/Particles/SpriteShape.swift): coverage 0…1
    /// of a sprite at local point q (pixels from its centre, x along its axis), `size` its full
    /// extents and `blur` its blur in pixels.
    private enum WelkinSpriteShape {
        static let flakeArmWidth: Float = 0.04
        static let cloudPuffs: [SIMD3<Float>] = [[-0.45, 0.15, 0.5], [0.0, -0.15, 0.6], [0.45, 0.15, 0.5]]
        static let blurReach: Float = 3

        static func support(_ kind: WelkinSpriteKind, size: SIMD2<Float>, blur: Float) -> SIMD2<Float> {
            let r = size.x * 0.5
            switch kind {
            case .dot: return SIMD2(repeating: r + 0.5)
            case .softDot: return SIMD2(repeating: r + blurReach * blur + 0.5)
            case .flake: return SIMD2(repeating: r + max(0.5, size.x * flakeArmWidth) + 0.5)
            case .streak: return size * 0.5 + 0.5
            case .cloud: return SIMD2(repeating: r + max(1, blur) + 0.5)
            }
        }

        static func erfcApprox(_ x: Float) -> Float {
            let z = abs(x)
            let t = 1 / (1 + 0.3275911 * z)
            let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
            let e = poly * expf(-z * z)
            return x >= 0 ? e : 2 - e
        }

        static func coverage(_ kind: WelkinSpriteKind, _ q: SIMD2<Float>, size: SIMD2<Float>, blur: Float) -> Float {
            let h = support(kind, size: size, blur: blur)
            if abs(q.x) >= h.x || abs(q.y) >= h.y { return 0 }
            let r = size.x * 0.5
            let d = (q.x * q.x + q.y * q.y).squareRoot()
            switch kind {
            case .dot:
                return min(max(r - d + 0.5, 0), 1)
            case .softDot:
                if blur <= 0 { return min(max(r - d + 0.5, 0), 1) }
                if d >= r + blurReach * blur { return 0 }
                return 0.5 * erfcApprox((d - r) / (blur * 1.41421356))
            case .flake:
                let w = max(0.5, size.x * flakeArmWidth)
                let sector: Float = 1.04719755
                let angle = atan2f(q.y, q.x)
                let folded = angle - sector * (angle / sector + 0.5).rounded(.down)
                let x = d * cosf(folded), y = d * sinf(folded)
                let along = min(max(x, 0), r)
                let dist = ((x - along) * (x - along) + y * y).squareRoot()
                return min(max(w - dist + 0.5, 0), 1)
            case .streak:
                let halfLength = size.x * 0.5, radius = size.y * 0.5
                let reach = max(halfLength - radius, 0)
                let along = min(max(q.x, -reach), reach)
                let dist = ((q.x - along) * (q.x - along) + q.y * q.y).squareRoot()
                let edge = min(max(radius - dist + 0.5, 0), 1)
                let fade = min(max((q.x + halfLength) / size.x, 0), 1)
                return edge * fade
            case .cloud:
                let e = max(1, blur)
                var c: Float = 0
                for puff in cloudPuffs {
                    let dx = q.x - puff.x * r, dy = q.y - puff.y * r
                    let dist = (dx * dx + dy * dy).squareRoot()
                    c = max(c, min(max((puff.z * r - dist) / e + 0.5, 0), 1))
                }
                return c
            }
        }

        /// The sprite as white premultiplied RGBA8 pixels (row 0 at the top), `width` × `height`:
        /// `size` and `blur` in points, `pixelsPerPoint` the image's scale, turned by `angle`
        /// radians (clockwise on screen, y down).
        static func pixels(_ kind: WelkinSpriteKind, size: SIMD2<Double>, blur: Double, angle: Double,
                           pixelsPerPoint: Double) -> (width: Int, height: Int, bytes: [UInt8]) {
            let s = SIMD2<Float>(size * pixelsPerPoint), b = Float(blur * pixelsPerPoint)
            let h = support(kind, size: s, blur: b)
            let c = Float(cos(angle)), sn = Float(sin(angle))
            let extent = SIMD2(abs(c) * h.x + abs(sn) * h.y, abs(sn) * h.x + abs(c) * h.y)
            let width = max(1, Int((extent.x * 2).rounded(.up))), height = max(1, Int((extent.y * 2).rounded(.up)))
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for j in 0..<height {
                for i in 0..<width {
                    let d = SIMD2(Float(i) + 0.5 - Float(width) / 2, Float(j) + 0.5 - Float(height) / 2)
                    let q = SIMD2(d.x * c + d.y * sn, -d.x * sn + d.y * c)
                    let v = UInt8((coverage(kind, q, size: s, blur: b) * 255).rounded())
                    let o = (j * width + i) * 4
                    bytes[o] = v; bytes[o + 1] = v; bytes[o + 2] = v; bytes[o + 3] = v
                }
            }
            return (width, height, bytes)
        }
    }
    """#)

    static let spriteImage = RuntimeSnippet(name: "spriteImage", order: 21, requires: ["sprite"], pure: false, source: #"""
    /// Sprite images are drawn at this many pixels per point (cells set `contentsScale` to match).
    private let welkinSpriteScale: CGFloat = 3

    /// A procedural sprite as a CGImage for `CAEmitterCell.contents`: white, Welkin's coverage as alpha.
    private func welkinSpriteImage(_ kind: WelkinSpriteKind, size: SIMD2<Double>, blur: Double, angle: Double = 0) -> CGImage? {
        var (width, height, bytes) = WelkinSpriteShape.pixels(kind, size: size, blur: blur, angle: angle,
                                                               pixelsPerPoint: Double(welkinSpriteScale))
        guard let space = CGColorSpace(name: CGColorSpace.sRGB) else { return nil }
        return bytes.withUnsafeMutableBytes { buffer in
            CGContext(data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                      space: space, bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)?.makeImage()
        }
    }
    """#)

    static let emitterView = RuntimeSnippet(name: "emitterView", order: 22, requires: [], pure: false, source: #"""
    #if canImport(UIKit)
    private typealias WelkinPlatformView = UIView
    #else
    private typealias WelkinPlatformView = NSView
    #endif

    /// Hosts a CAEmitterLayer: the layer fills the view and is laid out with it.
    private final class WelkinEmitterHostView: WelkinPlatformView {
        let emitter: CAEmitterLayer
        let place: (CAEmitterLayer, CGRect) -> Void

        init(emitter: CAEmitterLayer, layout: @escaping (CAEmitterLayer, CGRect) -> Void) {
            self.emitter = emitter
            self.place = layout
            super.init(frame: .zero)
            #if canImport(UIKit)
            isUserInteractionEnabled = false
            layer.addSublayer(emitter)
            #else
            wantsLayer = true
            layer?.addSublayer(emitter)
            #endif
        }

        required init?(coder: NSCoder) { fatalError("WelkinEmitterHostView is created in code") }

        #if canImport(UIKit)
        override func layoutSubviews() {
            super.layoutSubviews()
            place(emitter, bounds)
        }
        #else
        override func layout() {
            super.layout()
            place(emitter, bounds)
        }
        #endif
    }

    /// A CAEmitterLayer in SwiftUI, set up by `configure` and placed by `layout`; `birthRate`, when
    /// given, is the layer's birth rate at each update (a live sky's rain and snow, drawn in a
    /// TimelineView so it follows the weather frame by frame).
    private struct WelkinEmitterView {
        let configure: (CAEmitterLayer) -> Void
        let layout: (CAEmitterLayer, CGRect) -> Void
        var birthRate: Float? = nil

        @MainActor func makeHost() -> WelkinEmitterHostView {
            let emitter = CAEmitterLayer()
            configure(emitter)
            return WelkinEmitterHostView(emitter: emitter, layout: layout)
        }
    }

    #if canImport(UIKit)
    extension WelkinEmitterView: UIViewRepresentable {
        func makeUIView(context: Context) -> WelkinEmitterHostView { makeHost() }
        func updateUIView(_ view: WelkinEmitterHostView, context: Context) {
            if let birthRate, view.emitter.birthRate != birthRate { view.emitter.birthRate = birthRate }
        }
    }
    #else
    extension WelkinEmitterView: NSViewRepresentable {
        func makeNSView(context: Context) -> WelkinEmitterHostView { makeHost() }
        func updateNSView(_ view: WelkinEmitterHostView, context: Context) {
            if let birthRate, view.emitter.birthRate != birthRate { view.emitter.birthRate = birthRate }
        }
    }
    #endif
    """#)
}
