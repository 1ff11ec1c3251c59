// The panel's property editor: one widget for each key of a property table, chosen by its type.
//
// Numbers get sliders over the table's range (drags when the range is too wide to slide), with the
// unit in the format; integers likewise; colours a colour editor (sRGB with alpha); choices a combo;
// booleans a checkbox; nested tables and arrays of them tree nodes. What the table marks not `live`,
// and what has no widget (dates, paths, free text), is shown as read-only text. A widget never
// changes the scene itself: it records an edit (a JSON path and JSON text), and the viewer makes it
// through the same path as the console's `set`.

import Foundation
import WelkinCore
import WelkinPanelShim

/// An edit a widget asks for.
struct WidgetEdit {
    var path: JSONPath
    /// The new value as JSON text.
    var json: String
    /// The widget is being dragged: later edits of the same widget fold into this one's undo step.
    var continuing: Bool
    /// The widget's own path (an edit inside a default sets the whole value, at another path).
    var widget: String
}

struct PropertyWidgets {
    let document: SceneDocument
    /// The width of value widgets (labels go to their right).
    var itemWidth: Float
    private(set) var edits: [WidgetEdit] = []
    /// A widget was released after changing its value this frame (a drag ended).
    private(set) var released = false
    /// A default shown in place of an absent value (a sky's palette): an edit inside it sets the
    /// whole value, the default with that one change.
    private var materializing: (path: JSONPath, value: JSONValue)?
    /// The playhead (scene seconds): an animated property's plot marks it, "Make constant" keeps
    /// the value there.
    var time: Double = 0

    init(document: SceneDocument, itemWidth: Float) {
        self.document = document
        self.itemWidth = itemWidth
    }

    /// Every key of `table` for the object at `path` (`object`: its value, nil when absent).
    mutating func table(_ table: PropertyTable, at path: JSONPath, object: JSONValue?, skipping: Set<String> = []) {
        for property in table.properties where !skipping.contains(property.key) {
            let value = object?[property.key]
            // A key that could not be added here (it needs another, or cannot go with one) is not offered.
            if value == nil, let reason = Self.unavailable(property, in: object) {
                wp_text_disabled("\(property.key): \(reason)")
                tooltip(property, present: false)
                continue
            }
            self.property(property, at: path.appending(property.key), value: value)
        }
    }

    /// Why `property` cannot be added to `object`, if it cannot.
    static func unavailable(_ property: Property, in object: JSONValue?) -> String? {
        if let missing = property.needs.first(where: { object?[$0] == nil }) { return "needs \(missing)" }
        if let present = property.conflicts.first(where: { object?[$0] != nil }) { return "not with \(present)" }
        return nil
    }

    mutating func property(_ property: Property, at path: JSONPath, value: JSONValue?) {
        if value == nil, let defaultValue = property.defaultJSON, property.live, materializing == nil {
            materializing = (path, defaultValue)
            self.value(property.key, property.type, at: path, value: defaultValue, property: property)
            materializing = nil
            return
        }
        self.value(property.key, property.type, at: path, value: value, property: property)
    }

    // MARK: - One value

    mutating func value(_ label: String, _ declared: PropertyType, at path: JSONPath, value: JSONValue?, property: Property?) {
        let type = SceneFormat.resolved(declared, value)
        let live = property?.live ?? true
        let unit = property?.unit
        wp_push_id_string(label)
        defer { wp_pop_id() }
        guard live else { return readOnly(label, value, property) }
        switch type {
        case .number(let range):
            number(label, range, at: path, value: value, property: property, unit: unit)
        case .integer(let range):
            integer(label, range, at: path, value: value, property: property, unit: unit)
        case .bool:
            var on: Bool
            if case .bool(let b)? = value?.kind { on = b } else if case .bool(let b)? = property?.defaultValue { on = b } else { on = false }
            if wp_checkbox(label, &on) { record(path, on ? "true" : "false") }
            tooltip(property, present: value != nil)
        case .choice(let choices):
            var current: Int32 = 0
            if case .string(let s)? = value?.kind, let i = choices.firstIndex(of: s) { current = Int32(i) }
            else if case .string(let s)? = property?.defaultValue, let i = choices.firstIndex(of: s) { current = Int32(i) }
            wp_set_next_item_width(itemWidth)
            if withCStrings(choices, { wp_combo(label, &current, $0, Int32(choices.count)) }) {
                record(path, JSONValue.quoted(choices[Int(current)]))
            }
            tooltip(property, present: value != nil)
        case .color:
            color(label, at: path, value: value, property: property)
        case .unitPoint(let range), .pair(let range):
            pair(label, range, at: path, value: value, property: property, unit: unit)
        case .interval(let range):
            interval(label, range, at: path, value: value, property: property, unit: unit)
        case .array(let element, _):
            guard case .array(let items)? = value?.kind else { return readOnly(label, value, property) }
            if wp_tree_node("\(label) (\(items.count))", false) {
                for (i, item) in items.enumerated() {
                    wp_push_id(Int32(i))
                    if case .object(let table) = SceneFormat.resolved(element, item) {
                        if wp_tree_node("[\(i)]\(summaryOf(item))", false) {
                            self.table(table, at: path.appending(i), object: item)
                            wp_tree_pop()
                        }
                    } else {
                        self.value("[\(i)]", element, at: path.appending(i), value: item, property: nil)
                    }
                    wp_pop_id()
                }
                wp_tree_pop()
            }
            tooltip(property, present: value != nil)
        case .object(let table):
            guard let value, case .object = value.kind else { return readOnly(label, value, property) }
            let open = wp_tree_node(label, false)
            if let property, property.animatable { animationMenu(path, value: value, property: property, animated: true) }
            if open {
                if let property, property.animatable { plot(path) }
                self.table(table, at: path, object: value)
                wp_tree_pop()
            }
            tooltip(property, present: true)
        case .map(let element, _):
            guard case .object(let members)? = value?.kind else { return readOnly(label, value, property) }
            if wp_tree_node("\(label) (\(members.count))", false) {
                for member in members {
                    self.value(member.key, Self.mapElement(element, member.value), at: path.appending(member.key), value: member.value, property: nil)
                }
                wp_tree_pop()
            }
            tooltip(property, present: true)
        default:
            readOnly(label, value, property)
        }
        if let property, property.animatable, !Self.isObject(type) { animationMenu(path, value: value, property: property, animated: false) }
    }

    static func isObject(_ type: PropertyType) -> Bool { if case .object = type { return true } else { return false } }

    // MARK: - Animations

    /// The right-click menu of an animatable property: a constant becomes an animation from its value
    /// (back and forth forever, easeInOut: then set `to`); an animation becomes the constant it has at
    /// the playhead.
    mutating func animationMenu(_ path: JSONPath, value: JSONValue?, property: Property, animated: Bool) {
        var chosen: Int32 = -1
        if animated {
            guard withCStrings(["Make constant (the value now)"], { wp_context_menu("animation", $0, 1, &chosen) }),
                  let track = try? PropertyTrack(document: document, path: path, file: "") else { return }
            record(path, track.value(at: time).jsonText)
        } else {
            guard withCStrings(["Animate (from this value)"], { wp_context_menu("animation", $0, 1, &chosen) }) else { return }
            let current = value.map { $0.byteRange.isEmpty || document.bytes.isEmpty ? $0.serialized() : document.oneLineText(of: $0) }
                ?? property.defaultJSON?.serialized() ?? property.defaultValue.jsonText
            guard let current else { return }
            record(path, "{\"from\": \(current), \"to\": \(current), \"animation\": \"easeInOut\", \"repeat\": \"forever\", \"autoreverses\": true}")
        }
    }

    /// An animated property's value over the timeline around the playhead (its span, from 0 while
    /// the playhead is inside it, else ending at the playhead): a curve for a number, x and y for a
    /// point, a strip for a colour.
    func plot(_ path: JSONPath) {
        guard let track = try? PropertyTrack(document: document, path: path, file: ""), track.isAnimated else { return }
        let span = track.span, count = 96
        let start = time <= span ? 0 : time - span
        let times = (0..<count).map { start + span * Double($0) / Double(count - 1) }
        let marker = Float((time - start) / span)
        let width = itemWidth, height = wp_font_size() * 2.5
        switch track.value(at: 0) {
        case .color:
            var rgba: [Float] = []
            for t in times { if case .color(let c) = track.value(at: t) { rgba += [c.r, c.g, c.b, c.a].map { Float(min(max($0, 0), 1)) } } }
            wp_color_strip("##curve", rgba, Int32(count), width, height, marker)
        case .point:
            var xs: [Float] = [], ys: [Float] = []
            for t in times { if case .point(let p) = track.value(at: t) { xs.append(Float(p.x)); ys.append(Float(p.y)) } }
            let (low, high) = Self.bounds(xs + ys)
            wp_plot_curve("##curve", xs, ys, Int32(count), low, high, width, height, marker)
        default:
            var ys: [Float] = []
            for t in times { if case .number(let v) = track.value(at: t) { ys.append(Float(v)) } }
            let (low, high) = Self.bounds(ys)
            wp_plot_curve("##curve", ys, nil, Int32(count), low, high, width, height, marker)
        }
        wp_tooltip("\(Self.numberText(start, decimals: 2))…\(Self.numberText(start + span, decimals: 2)) s; the line is the playhead")
    }

    /// A plot's scale: the samples' range, padded so a flat line sits in the middle.
    static func bounds(_ values: [Float]) -> (Float, Float) {
        guard let low = values.min(), let high = values.max() else { return (0, 1) }
        let pad = max((high - low) * 0.08, 1e-3)
        return (low - pad, high + pad)
    }

    /// A map's values may be anything (a shader's uniforms): numbers get a drag, the rest is read only.
    static func mapElement(_ element: PropertyType, _ value: JSONValue) -> PropertyType {
        if case .any = element, case .number = value.kind { return .number(-1e9...1e9) }
        return element
    }

    /// " elevation -12" for a palette keyframe, " #FF9500 at 0.5" for a stop: what tells elements apart.
    func summaryOf(_ item: JSONValue) -> String {
        guard case .object(let members) = item.kind, let first = members.first(where: { $0.key != "type" }) ?? members.first else { return "" }
        let text = document.bytes.isEmpty || first.value.byteRange.isEmpty ? first.value.serialized() : document.oneLineText(of: first.value)
        return "  \(first.key) \(text.count > 24 ? String(text.prefix(24)) + "..." : text)"
    }

    mutating func readOnly(_ label: String, _ value: JSONValue?, _ property: Property?) {
        var text: String
        if let value {
            text = value.byteRange.isEmpty ? value.serialized() : document.oneLineText(of: value)
        } else {
            text = property?.defaultValue.displayText ?? "-"
        }
        if text.count > 48 { text = String(text.prefix(48)) + "..." }
        wp_text_disabled("\(label): \(text)")
        tooltip(property, present: value != nil)
    }

    /// An absent key whose default is a rule, not a number ("the start scale"): the slider shows the
    /// rule instead of a 0 it does not mean (Dear ImGui prints a format without a conversion as is).
    static func describedDefault(_ value: JSONValue?, _ property: Property?) -> String? {
        guard value == nil, case .described(let text)? = property?.defaultValue else { return nil }
        return "(" + text.replacingOccurrences(of: "%", with: "%%") + ")"
    }

    // MARK: - Widgets by type

    mutating func number(_ label: String, _ range: ClosedRange<Double>, at path: JSONPath, value: JSONValue?, property: Property?, unit: String?) {
        var current = 0.0
        if case .number(let n)? = value?.kind { current = n } else if case .number(let n)? = property?.defaultValue { current = n }
        current = min(max(current, range.lowerBound), range.upperBound)
        let decimals = Self.decimals(for: range, value: current)
        let format = Self.describedDefault(value, property) ?? Self.format(decimals: decimals, unit: unit)
        var f = Float(current)
        wp_set_next_item_width(itemWidth)
        let changed: Bool
        if Self.slides(range) {
            changed = wp_slider_float(label, &f, Float(range.lowerBound), Float(range.upperBound), format)
        } else {
            let speed = Float(max(abs(current) * 0.01, pow(10, -Double(decimals))))
            changed = wp_drag_float(label, &f, speed, Self.clampedFloat(range.lowerBound), Self.clampedFloat(range.upperBound), format)
        }
        if changed { record(path, Self.numberText(Double(f), decimals: decimals)) }
        tooltip(property, present: value != nil)
    }

    mutating func integer(_ label: String, _ range: ClosedRange<Int>, at path: JSONPath, value: JSONValue?, property: Property?, unit: String?) {
        var current = 0.0
        if case .number(let n)? = value?.kind { current = n } else if case .number(let n)? = property?.defaultValue { current = n }
        let low = Int32(clamping: range.lowerBound), high = Int32(clamping: range.upperBound)
        var i = Int32(clamping: Int(min(max(current, Double(low)), Double(high))))
        let format = Self.describedDefault(value, property) ?? unit.map { "%d \($0)" } ?? "%d"
        wp_set_next_item_width(itemWidth)
        let changed = Int(high) - Int(low) <= 100
            ? wp_slider_int(label, &i, low, high, format)
            : wp_drag_int(label, &i, 1, low, high, format)
        if changed { record(path, String(i)) }
        tooltip(property, present: value != nil)
    }

    mutating func color(_ label: String, at path: JSONPath, value: JSONValue?, property: Property?) {
        var rgba = RGBA.white
        if let value, let c = try? Node(value, path: path.description, file: "").color() { rgba = c }
        else if case .color(let c)? = property?.defaultValue { rgba = c }
        var f: [Float] = [Float(rgba.r), Float(rgba.g), Float(rgba.b), Float(rgba.a)]
        wp_set_next_item_width(itemWidth)
        if wp_color_edit4(label, &f) {
            // ImGui's 0–255 fields round every channel: the ones the user did not move keep their value.
            let before = [rgba.r, rgba.g, rgba.b, rgba.a]
            let channels = (0..<4).map { abs(Double(f[$0]) - before[$0]) <= 0.5 / 255 + 1e-6 ? before[$0] : Double(f[$0]) }
            record(path, Self.colorText(channels, like: value))
        }
        tooltip(property, present: value != nil)
    }

    mutating func pair(_ label: String, _ range: ClosedRange<Double>, at path: JSONPath, value: JSONValue?, property: Property?, unit: String?) {
        var point = SIMD2<Double>(0.5, 0.5)
        if let value, let p = try? Node(value, path: "", file: "").unitPoint() { point = p }
        else if case .point(let p)? = property?.defaultValue { point = p }
        else if case .number(let n)? = property?.defaultValue { point = SIMD2(n, n) }
        let span = Self.slides(range) ? range : max(range.lowerBound, -2)...min(range.upperBound, 2)
        let sliding = Self.slides(range) || (range.lowerBound <= -1e3 && range.contains(point.x) && range.contains(point.y) && abs(point.x) <= 2 && abs(point.y) <= 2)
        let decimals = Self.decimals(for: span, value: max(abs(point.x), abs(point.y)))
        let format = Self.format(decimals: decimals, unit: unit)
        var f: [Float] = [Float(point.x), Float(point.y)]
        wp_set_next_item_width(itemWidth)
        let changed = sliding
            ? wp_slider_float2(label, &f, Float(span.lowerBound), Float(span.upperBound), format)
            : wp_drag_float2(label, &f, Float(pow(10, -Double(decimals))), Self.clampedFloat(range.lowerBound), Self.clampedFloat(range.upperBound), format)
        if changed {
            record(path, "[\(Self.numberText(Double(f[0]), decimals: decimals)), \(Self.numberText(Double(f[1]), decimals: decimals))]")
        }
        tooltip(property, present: value != nil)
    }

    mutating func interval(_ label: String, _ range: ClosedRange<Double>, at path: JSONPath, value: JSONValue?, property: Property?, unit: String?) {
        var low = range.lowerBound, high = range.upperBound
        if case .array(let items)? = value?.kind, items.count == 2, case .number(let a) = items[0].kind, case .number(let b) = items[1].kind {
            low = a; high = b
        } else if case .interval(let r)? = property?.defaultValue {
            low = r.lowerBound; high = r.upperBound
        }
        let decimals = Self.decimals(for: range, value: max(abs(low), abs(high)))
        var a = Float(low), b = Float(high)
        wp_set_next_item_width(itemWidth)
        let speed = Float(max(abs(high - low) * 0.005, pow(10, -Double(decimals))))
        if wp_drag_float_range(label, &a, &b, speed, Self.clampedFloat(range.lowerBound), Self.clampedFloat(range.upperBound),
                               Self.format(decimals: decimals, unit: unit)) {
            record(path, "[\(Self.numberText(Double(a), decimals: decimals)), \(Self.numberText(Double(b), decimals: decimals))]")
        }
        tooltip(property, present: value != nil)
    }

    // MARK: - Edits

    mutating func record(_ path: JSONPath, _ json: String) {
        let continuing = wp_item_active()
        if let m = materializing, path.components.starts(with: m.path.components),
           let parsed = try? JSONParser.parse(json) {
            let relative = path.components.dropFirst(m.path.components.count)
            let whole = m.value.replacing(relative, with: parsed)
            materializing = (m.path, whole)
            edits.append(WidgetEdit(path: m.path, json: whole.serialized(indent: 2), continuing: continuing, widget: path.description))
            return
        }
        edits.append(WidgetEdit(path: path, json: json, continuing: continuing, widget: path.description))
    }

    mutating func tooltip(_ property: Property?, present: Bool) {
        if wp_item_deactivated_after_edit() { released = true }
        guard let property else { return }
        var text = property.summary
        if let unit = property.unit { text += " (\(unit))" }
        if !present { text += "\nNot in the file: the default, \(property.defaultValue.displayText)." }
        if !property.live { text += "\nRead only here: edit the file." }
        if property.animatable { text += "\nRight-click: animate it, or make an animation constant." }
        wp_tooltip(text)
    }

    // MARK: - Formats

    /// A range narrow enough for a slider (one pixel is a sensible step).
    static func slides(_ range: ClosedRange<Double>) -> Bool { range.upperBound - range.lowerBound <= 2000 }

    static func decimals(for range: ClosedRange<Double>, value: Double) -> Int {
        let span = min(range.upperBound - range.lowerBound, max(abs(value) * 4, 1))
        switch span {
        case ...2.5: return 3
        case ...25: return 2
        case ...250: return 1
        default: return 0
        }
    }

    static func format(decimals: Int, unit: String?) -> String {
        "%.\(decimals)f" + (unit.map { " " + $0.replacingOccurrences(of: "%", with: "%%") } ?? "")
    }

    static func numberText(_ value: Double, decimals: Int) -> String {
        let scale = pow(10, Double(decimals))
        return JSONValue.numberText((value * scale).rounded() / scale)
    }

    static func clampedFloat(_ value: Double) -> Float { Float(min(max(value, -1e30), 1e30)) }

    /// The colour in the form the file used: `#RRGGBB(AA)` for a hex string or a name, an array
    /// of 3 decimals for an array (a fourth component when there was one or alpha is not 1).
    static func colorText(_ f: [Double], like original: JSONValue?) -> String {
        let opaque = f[3] >= 0.9995
        if case .array(let items)? = original?.kind {
            let count = items.count == 4 || !opaque ? 4 : 3
            return "[" + f.prefix(count).map { numberText($0, decimals: 3) }.joined(separator: ", ") + "]"
        }
        var hasAlpha = !opaque
        if case .string(let s)? = original?.kind, s.hasPrefix("#"), s.count == 9 { hasAlpha = true }
        let bytes = f.prefix(hasAlpha ? 4 : 3).map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
        return "\"#" + bytes.map { String(format: "%02X", $0) }.joined() + "\""
    }
}

/// Calls `body` with `strings` as a C array of C strings.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer<CChar>($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
