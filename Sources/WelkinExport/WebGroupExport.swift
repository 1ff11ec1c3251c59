// `welkin export-web` of groups: their layers and mask as nodes of their own (web-runtime.js, drawGroup).

import Foundation
import WelkinCore

extension GroupLayer: WebExportable {
    func webNode(_ layer: Layer, index: Int, path: String, into b: inout WebExport.Builder) throws -> WebJSON? {
        var children: [WebJSON] = []
        for (i, child) in layers.enumerated() {
            if let n = try b.node(child, index: index, path: "\(path).layers[\(i)]") { children.append(n) }
        }
        var maskNode: WebJSON?
        if let m = mask {
            guard let n = try b.node(m, index: index, path: "\(path).mask") else {
                return b.leaveOut(layer, path, "a group whose mask is not exported")
            }
            maskNode = n
        }
        return try b.groupNode(label: b.label(layer, path), layers: children, mask: maskNode, invert: invertsMask, layer: layer)
    }
}
