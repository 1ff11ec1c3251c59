// Code export of `shader` layers: reported in a single file, compiled to Metal with `--package`
// (MetalExport).

import Foundation
import WelkinCore

extension ShaderLayer: CodeExportable {
    func export(layer: Layer, index: Int, context c: ExportContext) {
        let file = URL(fileURLWithPath: fragmentPath).lastPathComponent
        let message = c.warn(index, typeName, "\(MetalExport.onlyWithPackage): a GLSL fragment shader (\(file)) has no SwiftUI or Core Animation equivalent; \(MetalExport.drawnInPackage)")
        c.notExported(c.label(layer, index: index, kind: typeName), message,
                      details: uniforms.map { "uniform \($0.name) = \(ExportContext.describe($0.value))" })
    }
}
