// Code export of `group` layers: a ZStack of the group's layers, clipped by its mask with SwiftUI's
// `.mask { … }` (an inverted mask: the mask cut out of a full-frame rectangle with the
// `.destinationOut` blend mode in a compositing group), its shadow and opacity after it.

import WelkinCore

extension GroupLayer: CodeExportable {
    func export(layer: Layer, index: Int, context c: ExportContext) {
        guard c.swiftUIOnly(layer, index: index, "Welkin's groups (their layers, mask and shadow) are exported for SwiftUI only; export with --swiftui") else { return }
        let kind = layer.content.typeName
        c.require(iOS: 15, macOS: 12)
        let children = c.collect {
            for child in layers {
                guard let content = child.content as? CodeExportable else { continue }
                c.exportModified(content, child, index: index)
            }
        }
        let mask = self.mask.map { m in
            c.collect {
                if let content = m.content as? CodeExportable { c.exportModified(content, m, index: index) }
            }
        }
        c.addView { s in
            s.comment(c.label(layer, index: index, kind: kind) + " → a ZStack of its \(layers.count) layer\(layers.count == 1 ? "" : "s")" +
                      (mask == nil ? "." : invertsMask ? ", clipped by 1 − its mask's alpha." : ", clipped by its mask's alpha."))
            s.block("ZStack {", "}") { s in SwiftUIFile.writeChildren(children, into: &s) }
            if let mask {
                if invertsMask {
                    s.comment("The inverted mask: the mask cut out of a full-frame rectangle.")
                    s.block(".mask {") { s in
                        s.block("Rectangle().overlay {") { s in
                            s.block("ZStack {", "}") { s in SwiftUIFile.writeChildren(mask, into: &s) }
                            s.line(".blendMode(.destinationOut)")
                        }
                        s.line(".compositingGroup()")
                    }
                } else {
                    s.block(".mask {") { s in
                        s.block("ZStack {", "}") { s in SwiftUIFile.writeChildren(mask, into: &s) }
                    }
                }
            }
            s.line(".opacity(\(c.n(layer.opacity)))")
        }
    }
}
