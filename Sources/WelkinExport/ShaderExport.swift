// Code export of `shader` layers: reported in a single file, compiled to Metal with `--package`
// (MetalExport).

import Foundation
import WelkinCore

extension ShaderLayer: CodeExportable {
    func export(layer: Layer, index: Int, context c: ExportContext) {
        let file = URL(fileURLWithPath: fragmentPath).lastPathComponent
        if isMultipass {
            // Buffers feed back from frame to frame; the package's Metal replays recorded single passes.
            let message = c.warn(index, typeName, "not exported: a shader with buffers (\(buffers.map { "Buffer \($0.name)" }.joined(separator: ", "))) feeds its pictures back from frame to frame, which neither SwiftUI nor the package's Metal layers do (with or without --package)")
            c.notExported(c.label(layer, index: index, kind: typeName), message, details: shaderPaths.map { URL(fileURLWithPath: $0).lastPathComponent })
            return
        }
        c.needsPackage.append("GLSL shader")
        let message = c.warn(index, typeName, "\(MetalExport.onlyWithPackage): a GLSL fragment shader (\(file)) has no SwiftUI or Core Animation equivalent; \(MetalExport.drawnInPackage)")
        c.notExported(c.label(layer, index: index, kind: typeName), message,
                      details: uniforms.map { "uniform \($0.name) = \(ExportContext.describe($0.value))" })
    }
}
