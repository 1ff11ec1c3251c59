// `welkin export-web` of mesh gradients (web-runtime.js, "Meshes").

import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

extension MeshGradient: WebExportable {
    /// A mesh gradient: its vertices, walk and colour keyframes; the page computes MeshDraw's
    /// patches, colour coefficients and triangles each frame (web-runtime.js, "Meshes").
    func webNode(_ layer: Layer, index: Int, path: String, into b: inout WebExport.Builder) throws -> WebJSON? {
        let mesh = self
        let space = mesh.colorSpace ?? b.scene.colorSpace
        let keyframes = [MeshColorKeyframe(time: 0, colors: mesh.colors)] + mesh.colorKeyframes
        let animatedAlphas = mesh.colorAnimations?.flatMap { $0.namedValues.map(\.a) } ?? []
        let opaque = layer.opacity == 1 && layer.opacityAnimation == nil && keyframes.allSatisfy { $0.colors.allSatisfy { $0.a == 1 } }
            && animatedAlphas.allSatisfy { $0 == 1 }
        var defines: [(name: String, value: String)] = [("WELKIN_COLOR_SPACE", String(space.code)), ("WELKIN_MESH_SMOOTH", mesh.smoothsColors ? "1" : "0")]
        // A translucent mesh composites over a copy of what is below it (a fold shows the later
        // triangle, not both): MeshPass's WELKIN_MESH_OVER_COPY.
        if !opaque { defines.append(("WELKIN_MESH_OVER_COPY", "1")) }
        let program = try b.program(vertex: ShaderSource(path: b.shaders.path("mesh.vert"), defines: defines),
                                  fragment: ShaderSource(path: b.shaders.path("mesh.frag"), defines: defines))
        let vertices: (String, [Double]) = switch mesh.vertices {
        case .points(let p): ("points", p.flatMap { [$0.x, $0.y] })
        case .bezier(let b): ("bezier", b.flatMap { [$0.position.x, $0.position.y, $0.leading.x, $0.leading.y, $0.top.x, $0.top.y,
                                                     $0.trailing.x, $0.trailing.y, $0.bottom.x, $0.bottom.y] })
        }
        let range = MeshDraw.channelRange(mesh.colors + mesh.colorKeyframes.flatMap(\.colors))
        let background = mesh.background.premultiplied
        var walk: WebJSON = .null
        if let a = mesh.animation {
            let springSteps = MeshRandomWalk.maximumSpringSteps / max(1, b.scene.animatedMeshCount)
            walk = .object([
                ("interval", .number(a.interval)), ("step", .number(a.step)),
                ("duration", .number(a.spring.duration)), ("bounce", .number(a.spring.bounce)),
                ("tickLimit", .number(Double(a.tickLimit(vertexCount: mesh.width * mesh.height, springSteps: springSteps)))),
                ("ranges", .array(a.ranges.map { r in
                    .object([("index", .number(Double(r.index))),
                             ("x", r.x.map { .numbers([$0.lowerBound, $0.upperBound]) } ?? .null),
                             ("y", r.y.map { .numbers([$0.lowerBound, $0.upperBound]) } ?? .null)])
                })),
            ])
        }
        return .object([
            ("kind", .string("mesh")), ("label", .string(b.label(layer, path))), ("program", .number(Double(program))),
            ("overCopy", .bool(!opaque)), ("width", .number(Double(mesh.width))), ("height", .number(Double(mesh.height))),
            ("smooth", .bool(mesh.smoothsColors)), ("vertexKind", .string(vertices.0)), ("vertices", .numbers(vertices.1)),
            ("keyframes", .array(keyframes.map { k in
                .object([("time", .number(k.time)),
                         ("colors", .floats(k.colors.flatMap { c -> [Float] in let v = ColorMath.toInterpolationSpace(c, space); return [v.x, v.y, v.z, v.w] }))])
            })),
            ("opacity", .floats([Float(layer.opacity)])), ("background", .floats([background.x, background.y, background.z, background.w])),
            ("channelLow", .floats([range.low.x, range.low.y, range.low.z])), ("channelHigh", .floats([range.high.x, range.high.y, range.high.z])),
            ("walk", walk), ("seed", .string(String(b.scene.seed))), ("space", .number(Double(space.code))),
            ("pointAnimations", mesh.pointAnimations.map { .array($0.map { .animated($0, WebJSON.point) }) } ?? .null),
            ("colorAnimations", mesh.colorAnimations.map { .array($0.map { .animated($0, WebJSON.rgba) }) } ?? .null),
            ("keyframeColors", .array(mesh.colorKeyframes.map { .array($0.colors.map(WebJSON.rgba)) })),
        ])
    }

}
