// Mesh control points over the picture: with the panel up and a mesh gradient layer selected, its
// vertices (as the file has them, before any animation moves them) are drawn as handles that the
// mouse drags. A drag is an edit of `layers[i].points[k]` (or `bezierPoints[k].position`) through the
// console's edit path: one undo step, answered on release. Shift snaps to a 1/20 grid.

import WelkinCore
import WelkinPanelShim

/// A mesh vertex being dragged.
struct MeshPointDrag {
    var layer: Int
    var index: Int
    var path: JSONPath
    /// Whether the drag has moved the point (an edit was made).
    var moved = false
}

extension Viewer {
    /// How near (in pixels at scale 1) the mouse must be to pick a point up.
    static let meshPointRadius: Float = 7
    /// Shift-drag snaps to multiples of this, in unit space.
    static let meshPointSnap = 0.05

    /// The vertices of the mesh layer at `layer` in the document: unit positions and their paths.
    func meshVertices(layer: Int) -> (width: Int, points: [(position: SIMD2<Double>, path: JSONPath)])? {
        let base = JSONPath([.key("layers"), .index(layer)])
        // The decoded scene says which layers are meshes; the document, where their points are.
        guard layer < scene.layers.count, scene.layers[layer].content is MeshGradient,
              let value = (try? editor.document.value(at: base)) ?? nil, case .number(let width)? = value["width"]?.kind else { return nil }
        func point(_ v: JSONValue?) -> SIMD2<Double>? { v.flatMap { try? Node($0, path: "", file: "").unitPoint() } }
        var points: [(SIMD2<Double>, JSONPath)] = []
        if case .array(let items)? = value["points"]?.kind {
            for (k, item) in items.enumerated() {
                if let p = point(item) { points.append((p, base.appending("points").appending(k))) }
            }
        } else if case .array(let items)? = value["bezierPoints"]?.kind {
            for (k, item) in items.enumerated() {
                if let p = point(item["position"]) { points.append((p, base.appending("bezierPoints").appending(k).appending("position"))) }
            }
        }
        return (Int(width), points)
    }

    /// Draws the selected mesh layer's vertices and runs a drag; returns the edits it made and
    /// whether a drag that moved a point was released this frame.
    func meshPointHandles(_ rect: PictureRect) -> (edits: [WidgetEdit], released: Bool) {
        let fb = rect.size
        guard let mesh = meshVertices(layer: panel.selectedLayer), !mesh.points.isEmpty else {
            panel.meshDrag = nil
            return ([], false)
        }
        let size = SIMD2<Double>(Double(fb.x), Double(fb.y))
        let scale = Float(contentScale().x)
        var mouseX: Float = 0, mouseY: Float = 0
        wp_mouse_position(&mouseX, &mouseY)
        // The picture's pixels: the window's, less where the picture starts.
        let mouse = SIMD2<Double>(Double(mouseX), Double(mouseY)) - SIMD2<Double>(rect.origin)
        // A transformed mesh layer's vertices are where its transform puts them now.
        let sceneSize = SIMD2<Double>(Double(scene.size.x), Double(scene.size.y))
        let transform = scene.layers[panel.selectedLayer].transform?.affine(at: playback.time, box: SIMD4(0, 0, size.x, size.y),
                                                                            pixelsPerPoint: size / sceneSize)
        let pixels = mesh.points.map { transform?.forward($0.position * size) ?? $0.position * size }
        let reach = Double(Self.meshPointRadius * scale * 1.5)
        func distance(_ k: Int) -> Double { let d = pixels[k] - mouse; return (d * d).sum().squareRoot() }
        let nearest = pixels.indices.min { distance($0) < distance($1) }
        let hovered = nearest.flatMap { distance($0) <= reach ? $0 : nil }

        // The grid's rows and columns, then the handles (window pixels: the picture's plus its origin).
        let ox = Float(rect.origin.x), oy = Float(rect.origin.y)
        for (k, p) in pixels.enumerated() {
            for neighbour in [k + 1, k + mesh.width] where neighbour < pixels.count && (neighbour == k + mesh.width || neighbour % mesh.width != 0) {
                let q = pixels[neighbour]
                wp_draw_line(Float(p.x) + ox, Float(p.y) + oy, Float(q.x) + ox, Float(q.y) + oy, 1, 1, 1, 0.35)
            }
        }
        for (k, p) in pixels.enumerated() {
            let active = panel.meshDrag?.index == k || (panel.meshDrag == nil && hovered == k)
            wp_draw_circle(Float(p.x) + ox, Float(p.y) + oy, Self.meshPointRadius * scale + 1, 0, 0, 0, 0.6, false)
            wp_draw_circle(Float(p.x) + ox, Float(p.y) + oy, Self.meshPointRadius * scale, 1, 1, 1, 0.95, active)
        }

        var edits: [WidgetEdit] = []
        var released = false
        if panel.meshDrag == nil, wp_mouse_clicked(), !wp_want_mouse(), let k = hovered {
            panel.meshDrag = MeshPointDrag(layer: panel.selectedLayer, index: k, path: mesh.points[k].path)
        }
        if var drag = panel.meshDrag {
            if wp_mouse_down() {
                var unit = (transform?.backward(mouse) ?? mouse) / size
                if wp_key_shift() { unit = (unit / Self.meshPointSnap).rounded(.toNearestOrAwayFromZero) * Self.meshPointSnap }
                unit = pointwiseMin(pointwiseMax(unit, SIMD2(repeating: -MeshGradient.coordinateLimit)), SIMD2(repeating: MeshGradient.coordinateLimit))
                let text = "[\(PropertyWidgets.numberText(unit.x, decimals: 3)), \(PropertyWidgets.numberText(unit.y, decimals: 3))]"
                let current = mesh.points[drag.index].position
                let moved = PropertyWidgets.numberText(current.x, decimals: 3) != PropertyWidgets.numberText(unit.x, decimals: 3)
                    || PropertyWidgets.numberText(current.y, decimals: 3) != PropertyWidgets.numberText(unit.y, decimals: 3)
                if moved {
                    edits.append(WidgetEdit(path: drag.path, json: text, continuing: true, widget: "mesh " + drag.path.description))
                    drag.moved = true
                }
                panel.meshDrag = drag
            } else {
                released = drag.moved
                panel.meshDrag = nil
            }
        }
        return (edits, released)
    }
}
