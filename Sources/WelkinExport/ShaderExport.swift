// Code export of `shader` layers: not exported (SwiftUI's shaders are Metal), with what to do.

import Foundation
import WelkinCore

extension ShaderLayer: CodeExportable {
    func export(layer: Layer, index: Int, context c: ExportContext) {
        let file = URL(fileURLWithPath: fragmentPath).lastPathComponent
        let message = c.warn(index, typeName, "not exported: a GLSL fragment shader (\(file)) has no SwiftUI or Core Animation equivalent; SwiftUI's shaders are Metal: port it to a [[stitchable]] function and apply it with .colorEffect or .layerEffect")
        c.notExported(c.label(layer, index: index, kind: typeName), message,
                      details: uniforms.map { "uniform \($0.name) = \(ExportContext.describe($0.value))" })
    }
}
