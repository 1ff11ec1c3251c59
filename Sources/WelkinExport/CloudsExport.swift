// The `clouds` layer in code export: reported in a single file (a ray march per pixel needs Metal),
// drawn by Metal with `--package` (MetalExport).

import WelkinCore

extension CloudsLayer: CodeExportable {
    /// Volumetric clouds are reported: they need Metal (a ray march per pixel), which `--package` writes.
    func export(layer: Layer, index: Int, context c: ExportContext) {
        let kind = layer.content.typeName
        let type = cloudType?.rawValue ?? "the weather's type"
        let coverage = self.coverage.map { c.n($0) } ?? "the weather's"
        c.needsPackage.append("volumetric clouds")
        let message = c.warn(index, kind, "\(MetalExport.onlyWithPackage): volumetric clouds (\(type), coverage \(coverage)) are ray-marched per pixel and have no SwiftUI or Core Animation equivalent; \(MetalExport.drawnInPackage)")
        c.notExported(c.label(layer, index: index, kind: kind), message)
    }
}
