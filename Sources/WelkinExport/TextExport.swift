// Code export of `text` layers: not exported yet, with the SwiftUI that draws them.

import WelkinCore

/// Text, masks and shadows (text and group layers): listed as not exported, naming SwiftUI's equivalents.
func notExportedYet(_ layer: Layer, index: Int, context c: ExportContext) {
    let kind = layer.content.typeName
    let message = c.warn(index, kind, "not exported: Welkin's \(kind) layers (text, masks and shadows) have no code export yet; SwiftUI's Text, .mask and .shadow draw the same things")
    c.notExported(c.label(layer, index: index, kind: kind), message)
}

extension TextLayer: CodeExportable {
    func export(layer: Layer, index: Int, context: ExportContext) { notExportedYet(layer, index: index, context: context) }
}
