// `welkin export-web` of the gradient layers (web-runtime.js, drawGradient).

import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

extension Gradient: WebExportable {
    func webNode(_ layer: Layer, index: Int, path: String, into b: inout WebExport.Builder) throws -> WebJSON? {
        let gradient = self
        // The draw at the scene's size: its stops and kind do not depend on the size.
        let draw = GradientDraw(gradient, opacity: layer.opacity, sceneColorSpace: b.scene.colorSpace, pixelSize: b.scene.size, scale: SIMD2(1, 1))
        let program = try b.program(vertex: WebPrograms.fullScreenVertex(b.shaders),
                                  fragment: WebPrograms.gradient(b.shaders, kind: draw.kind, space: draw.stops.space, stopCount: draw.stops.locations.count))
        let (shape, points, numbers): (String, [Double], [Double]) = switch gradient.shape {
        case .linear(let s, let e): ("linear", [s.x, s.y, e.x, e.y], [])
        case .radial(let c, let r0, let r1): ("radial", [c.x, c.y], [r0, r1])
        case .elliptical(let c, let f0, let f1): ("elliptical", [c.x, c.y], [f0, f1])
        case .angular(let c, let a0, let a1): ("angular", [c.x, c.y], [a0, a1])
        }
        return .object([
            ("kind", .string("gradient")), ("label", .string(b.label(layer, path))), ("program", .number(Double(program))),
            ("shape", .string(shape)), ("points", .numbers(points)), ("numbers", .numbers(numbers)),
            ("locations", .floats(draw.stops.locations)), ("colors", .floats(draw.stops.colors.flatMap { [$0.x, $0.y, $0.z, $0.w] })),
            ("opacity", .floats([draw.opacity])), ("space", .number(Double(draw.stops.space.code))),
            ("animation", gradient.animation.map { a in .object([
                ("stops", .array(a.stops.map { .object([("color", .animated($0.color, WebJSON.rgba)), ("location", .animated($0.location, WebJSON.number))]) })),
                ("points", .array(a.points.map { .animated($0, WebJSON.point) })), ("numbers", .array(a.numbers.map { .animated($0, WebJSON.number) })),
            ]) } ?? .null),
        ])
    }

}
