// `welkin export-web` of shader layers, their buffers and channels (web-runtime.js, shaderPass).

import Foundation
import WelkinCore
import WelkinGL
import WelkinImage

extension ShaderLayer: WebExportable {
    func webNode(_ layer: Layer, index: Int, path jsonPath: String, into b: inout WebExport.Builder) throws -> WebJSON? {
        let shader = self
        if shader.cube != nil { return b.leaveOut(layer, jsonPath, "a shader with a Cube A pass") }
        /// One pass's program (wrapped as UserShaderPass wraps it) and its channels' JSON.
        func pass(fragment path: String, channels: [ShaderChannel], isBuffer: Bool, channelsPath: String) throws -> (program: Int, isShadertoy: Bool, channels: WebJSON) {
            let (fragment, isShadertoy) = try WebPrograms.userShader(path: path, common: shader.commonPath, channels: channels,
                                                                   isBuffer: isBuffer, shaders: b.shaders)
            for file in fragment.files { try b.checkInside(file, what: "the shader file", jsonPath: jsonPath + ".fragment") }
            let program = try b.program(vertex: WebPrograms.fullScreenVertex(b.shaders), fragment: fragment)
            var out: [WebJSON] = []
            for (i, channel) in channels.prefix(Shadertoy.channelCount).enumerated() {
                let channelPath = "\(channelsPath)[\(i)]"
                if let name = channel.bufferName {
                    out.append(.object([("buffer", .string(name)), ("filter", .string(channel.filter.rawValue)), ("wrap", .string(channel.wrap.rawValue))]))
                } else if let image = channel.imagePath {
                    let t = try b.texture(image, vflip: channel.vflip, jsonPath: channelPath)
                    out.append(.object([("texture", .number(Double(t))), ("filter", .string(channel.filter.rawValue)), ("wrap", .string(channel.wrap.rawValue))]))
                } else {
                    if channel.source != .empty {
                        b.warnings.append("\(b.label(layer, jsonPath)): \(channelPath): not exported yet: only image and buffer channels reach the page; this one reads black")
                    }
                    out.append(.null)
                }
            }
            return (program, isShadertoy, .array(out))
        }
        let own = try pass(fragment: shader.fragmentPath, channels: shader.channels, isBuffer: false, channelsPath: "\(jsonPath).channels")
        let composite = try b.program(vertex: WebPrograms.fullScreenVertex(b.shaders), fragment: WebPrograms.layerComposite(b.shaders))
        var buffers: WebJSON = .null
        if !shader.buffers.isEmpty {
            var passes: [WebJSON] = []
            for b in shader.buffers {
                let p = try pass(fragment: b.fragmentPath, channels: b.channels, isBuffer: true, channelsPath: "\(jsonPath).buffers.\(b.name).channels")
                passes.append(.object([("name", .string(b.name)), ("program", .number(Double(p.program))), ("channels", p.channels), ("isBuffer", .bool(true))]))
            }
            // Buffers any pass samples with mipmaps (made after each buffer frame).
            let readers = ([shader.channels] + shader.buffers.map(\.channels)).flatMap { $0 }
            let mipmapped = shader.buffers.map(\.name).filter { name in readers.contains { $0.bufferName == name && $0.filter == .mipmap } }
            buffers = .object([("passes", .array(passes)), ("mipmapped", .array(mipmapped.map(WebJSON.string)))])
        }
        return .object([
            ("kind", .string("userShader")), ("label", .string(b.label(layer, jsonPath))), ("program", .number(Double(own.program))),
            ("composite", .number(Double(composite))), ("opacity", .floats([Float(layer.opacity)])),
            ("shadertoy", .bool(own.isShadertoy)), ("alpha", .number(shader.alpha == .shader ? 1 : 0)),
            ("alphaUniform", .string(WebPrograms.shadertoyAlphaUniform)),
            ("uniforms", .array(shader.uniforms.map { .object([("name", .string($0.name)), ("path", .string("\(jsonPath).uniforms.\($0.name)")),
                                                              ("values", .floats($0.value.components))]) })),
            ("channels", own.channels), ("buffers", buffers),
            ("iDate", .numbers([Double(Shadertoy.fixedDate.unixSeconds), Double(Shadertoy.fixedDate.offsetSeconds)])),
        ])
    }
}
