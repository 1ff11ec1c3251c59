// `welkin export-web` of text layers: Welkin's own glyph layouts (web-runtime.js, "Text").

import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

extension TextLayer: WebExportable {
    /// Static text: its glyph quads, coverage atlas and box at each fixed scale, drawn by
    /// text.vert/.frag; its colour may animate.
    func webNode(_ layer: Layer, index: Int, path: String, into b: inout WebExport.Builder) throws -> WebJSON? {
        let text = self
        guard text.template.parts.allSatisfy({ if case .text = $0 { true } else { false } }) else {
        return b.leaveOut(layer, path, "text that shows the clock (its string changes; the page has no font engine)")
    }
        b.usesFixedScales = true
        let program = try b.program(vertex: b.shaders.source("text.vert"), fragment: b.shaders.source("text.frag"))
        var layouts: [WebJSON] = []
        for k in WebExport.Builder.fixedScales {
            let size = b.scene.size &* k
            let draw = TextDraw(text, opacity: layer.opacity, time: 0, clock: b.scene.clock(at: 0), pixelSize: size,
                                scale: SIMD2(Double(k), Double(k)), path: path, space: b.scene.colorSpace)
            if let error = draw.error { throw WebExport.Failure(description: error.message) }
            guard let atlas = draw.atlas else { layouts.append(.null); continue }
            let compressed = try PNGColor.deflate(atlas.pixels)
            let box = draw.frameBox ?? SIMD4(0, 0, Double(size.x), Double(size.y))
            layouts.append(.object([
                ("quads", .numbers(draw.quads.flatMap { [Double($0.origin.x), Double($0.origin.y), Double($0.size.x), Double($0.size.y),
                                                         Double($0.atlasOrigin.x), Double($0.atlasOrigin.y)] })),
                ("atlas", .string(Base64.encode(compressed))), ("width", .number(Double(atlas.width))), ("height", .number(Double(atlas.height))),
                ("box", .numbers([box.x, box.y, box.z, box.w])),
            ]))
        }
        return .object([("kind", .string("glyphs")), ("label", .string(b.label(layer, path))), ("program", .number(Double(program))),
                        ("color", .animated(text.color, WebJSON.rgba)), ("space", .number(Double(b.scene.colorSpace.code))),
                        ("opacity", .floats([Float(layer.opacity)])), ("layouts", .array(layouts))])
    }

}
