// The `clouds` layer in code export: reported, not written (a ray march per pixel needs Metal).

import WelkinCore

extension CloudsLayer: CodeExportable {
    /// Volumetric clouds are reported: they need a Metal shader (a ray march per pixel).
    func export(layer: Layer, index: Int, context c: ExportContext) {
        let kind = layer.content.typeName
        let type = cloudType?.rawValue ?? "the weather's type"
        let coverage = self.coverage.map { c.n($0) } ?? "the weather's"
        let message = c.warn(index, kind, "not exported: volumetric clouds (\(type), coverage \(coverage)) are ray-marched per pixel and have no SwiftUI or Core Animation equivalent; they would need a Metal shader")
        c.notExported(c.label(layer, index: index, kind: kind), message)
    }
}
