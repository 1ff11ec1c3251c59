// Code export of `group` layers: not exported yet (TextExport.swift's notExportedYet).

import WelkinCore

extension GroupLayer: CodeExportable {
    func export(layer: Layer, index: Int, context: ExportContext) { notExportedYet(layer, index: index, context: context) }
}
