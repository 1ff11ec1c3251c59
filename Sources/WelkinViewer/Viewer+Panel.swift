// The panel (Dear ImGui through WelkinPanelShim): Tab shows it docked to the right, hidden at start.
//
// It holds the clock (play, time, speed 0.1–2), the weather, a stats line, the layers in drawing
// order (visibility, opacity, selection) and every property of the selected layer from its kind's
// property table (PropertyWidgets). Every change it makes goes through the console's edit path, so
// undo, redo and save treat it alike. The error overlay — the message of a failing scene or shader
// over the last good picture — uses the same ImGui frame and shows even with the panel hidden.
//
// Hidden and with nothing to report, the panel costs nothing: no ImGui frame is begun. ImGui starts
// the first time it is needed. Its layout file is $XDG_CONFIG_HOME/welkin/imgui.ini.

import CGLFW
import Foundation
import WelkinCore
import WelkinPanelShim

/// The panel: whether it shows, and what it remembers between frames.
struct Panel {
    var visible = false
    var started = false
    var selectedLayer = 0
    /// Layers the viewer draws with opacity 0 (a viewing aid, not an edit: never saved).
    var hiddenLayers: Set<Int> = []
    /// Frames still to present after an input event (ImGui settles hover and release over a frame or two).
    var framesToPresent = 0
    /// The panel's width last frame, for the error overlay to keep clear of it.
    var width: Float = 0
    /// Why the panel's last edit was refused (shown until an edit is made).
    var editError: String?
    /// The Save as… field's text (NUL-terminated; filled with a suggestion when first shown).
    var saveAsPath: [CChar] = []
    /// A mesh vertex being dragged over the picture (Viewer+MeshPoints.swift).
    var meshDrag: MeshPointDrag?
}

extension Viewer {
    /// The panel's width at start, in pixels at scale 1.
    static let panelWidth: Float = 400
    /// The window's colour where the picture does not reach (letterbox bars, beside the panel).
    static let letterboxGrey: Float = 0.1

    /// Docks the panel beside the picture: shown in a window too narrow for both, the window grows
    /// by what the picture would lose (as far as the screen allows), so the picture keeps its size;
    /// hidden again, the window gets its width back unless it was resized meanwhile. Not while
    /// fullscreen or maximised.
    func dockPanel() {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetWindowSize(window, &w, &h)
        let fb = framebufferSize()
        guard windowedFrame == nil, glfwGetWindowAttrib(window, GLFW_MAXIMIZED) == 0, w > 0, fb.x > 0 else { return }
        if !panel.visible {
            if let widened = widenedForPanel, widened.after == w { glfwSetWindowSize(window, widened.before, h) }
            widenedForPanel = nil
            return
        }
        panel.visible = false
        let alone = pictureRect(fb).size.x
        panel.visible = true
        let panelPixels = Int((panel.width > 0 ? panel.width : Self.panelWidth * Float(contentScale().x)).rounded())
        // The width the picture and the panel need side by side, beyond the window's.
        let short = alone + panelPixels - fb.x
        guard pictureRect(fb).size.x < alone, short > 0 else { return }
        // Window units per framebuffer pixel; the screen's width bounds the growth.
        let perPixel = Double(w) / Double(fb.x)
        var wanted = w + Int32((Double(short) * perPixel).rounded(.up))
        if let monitor = glfwGetPrimaryMonitor(), let mode = glfwGetVideoMode(monitor) {
            var x: Int32 = 0, y: Int32 = 0
            glfwGetWindowPos(window, &x, &y)
            wanted = min(wanted, max(w, mode.pointee.width - max(0, x)))
        }
        guard wanted > w else { return }
        glfwSetWindowSize(window, wanted, h)
        widenedForPanel = (w, wanted)
    }

    /// A mouse or text event: while the panel is up, present again so it can answer.
    static func inputArrived(_ window: OpaquePointer?) {
        guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
        let viewer = Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue()
        if viewer.panel.visible { viewer.needsPresent() }
    }

    func togglePanel() {
        panel.visible.toggle()
        if panel.visible {
            startPanelIfNeeded()
            wp_clear_input()
        }
        dockPanel()
        print(panel.visible ? "panel shown (Tab hides it)" : "panel hidden")
        // The picture takes the part of the window the panel leaves, or all of it again.
        needsRedraw = true
        needsPresent()
    }

    /// Asks for the window to be presented again (blit, panel, swap) without drawing the scene.
    func needsPresent(frames: Int = 2) {
        panel.framesToPresent = max(panel.framesToPresent, frames)
    }

    /// Whether this frame needs an ImGui frame: the panel is up, or something is broken.
    var drawsImGui: Bool { panel.visible || !reload.failures.isEmpty }

    func startPanelIfNeeded() {
        guard !panel.started else { return }
        let directory = ViewerPaths.configDirectory
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let scale = Float(contentScale().x)
        if wp_init(UnsafeMutableRawPointer(window), directory + "/imgui.ini", scale) {
            panel.started = true
        } else {
            printError("welkin: the panel could not start (Dear ImGui's OpenGL 3 backend failed)")
        }
    }

    /// Builds and draws this frame's ImGui windows over what is in the window's framebuffer.
    func drawImGui(_ fb: SIMD2<Int>) {
        startPanelIfNeeded()
        guard panel.started else { return }
        wp_new_frame()
        var edits: [WidgetEdit] = []
        var released = false
        if panel.visible {
            let width = panel.width
            (edits, released) = buildPanel(fb)
            // The picture is drawn beside the panel: a panel of another width needs it again.
            if panel.width != width { needsRedraw = true }
            let handles = meshPointHandles(pictureRect(fb))
            edits += handles.edits
            released = released || handles.released
        } else {
            panel.width = 0
        }
        if !reload.failures.isEmpty { buildErrorOverlay(fb) }
        wp_render()
        applyPanelEdits(edits, released: released)
    }

    // MARK: - The panel

    func buildPanel(_ fb: SIMD2<Int>) -> ([WidgetEdit], Bool) {
        let scale = Float(contentScale().x)
        defer { wp_end() }
        guard wp_begin_side_panel("Welkin###panel", Float(fb.x), Float(fb.y), Self.panelWidth * scale) else { return ([], false) }
        panel.width = wp_window_width()
        let itemWidth = panel.width * 0.55
        var widgets = PropertyWidgets(document: editor.document, itemWidth: itemWidth)
        widgets.time = playback.time

        // Scene and file.
        wp_text("\(scene.name)\(editor.isDirty ? " *" : "")")
        wp_text_disabled(editor.path.map { ($0 as NSString).lastPathComponent } ?? "the built-in scene (no file)")
        if wp_button("Save") { runCommand("save") }
        wp_same_line(0)
        if wp_button("Undo") { runCommand("undo") }
        wp_same_line(0)
        if wp_button("Redo") { runCommand("redo") }
        // Save as…: the scene (the built-in one too) to a new file, which the viewer edits from then on.
        // On the same line, so that nothing below moves.
        if panel.saveAsPath.isEmpty { panel.saveAsPath = Self.textBuffer(Self.saveAsSuggestion(editor.path), size: 1024) }
        wp_same_line(0)
        wp_set_next_item_width(panel.width * 0.33)
        let entered = wp_input_text("##saveAs", &panel.saveAsPath, Int32(panel.saveAsPath.count))
        wp_same_line(0)
        if wp_button("Save as...") || entered { saveAsFromPanel() }
        wp_tooltip("Write the scene to this file (never over another file) and go on editing it there: the console's save PATH.")
        if let message = panel.editError {
            wp_text_colored(1, 0.45, 0.4, 1, "Refused:")
            wp_same_line(0)
            wp_text_wrapped(message)
        }
        wp_separator()

        // Clock.
        if wp_button(playback.paused ? "Play " : "Pause") { togglePause() }
        wp_same_line(0)
        if wp_button("|<") { restart() }
        wp_same_line(0)
        wp_text("t = \(Playback.format(playback.time)) s")
        var speedValue = Float(playback.speed)
        wp_set_next_item_width(itemWidth)
        if wp_slider_float("speed", &speedValue, Float(Playback.speedRange.lowerBound), Float(Playback.speedRange.upperBound), "%.2fx") {
            playback.setSpeed(Double((speedValue * 100).rounded() / 100))
            refreshTitle()
        }
        if wp_item_deactivated_after_edit() { setSpeed(playback.speed) }
        wp_tooltip("Playback speed: scene seconds per second ([ and ] step it; console: speed S).")
        if hasSkySpaceLayers { weatherWidget(itemWidth: itemWidth) }
        wp_text_disabled(statsLine)
        wp_separator()

        // The sky camera (Viewer+Camera.swift).
        if hasSkySpaceLayers, wp_collapsing_header("Camera", false) {
            cameraWidgets(pictureRect(fb).size, itemWidth: itemWidth)
            wp_separator()
        }

        // Layers, in drawing order.
        let layersValue = (try? editor.document.value(at: JSONPath([.key("layers")]))) ?? nil
        var layerValues: [JSONValue] = []
        if case .array(let items)? = layersValue?.kind { layerValues = items }
        if panel.selectedLayer >= layerValues.count { panel.selectedLayer = max(0, layerValues.count - 1) }
        if wp_collapsing_header("Layers", true) {
            for (i, layer) in layerValues.enumerated() {
                wp_push_id(Int32(i))
                var visible = !panel.hiddenLayers.contains(i)
                if wp_checkbox("##visible", &visible) {
                    if visible { panel.hiddenLayers.remove(i) } else { panel.hiddenLayers.insert(i) }
                    needsRedraw = true
                }
                wp_tooltip("Show or hide this layer in the viewer (not saved; screenshots leave hidden layers out too).")
                wp_same_line(0)
                var type = "?"
                if case .string(let t)? = layer["type"]?.kind { type = t }
                var name = ""
                if case .string(let n)? = layer["name"]?.kind { name = " " + n }
                if wp_selectable("\(i) \(type)\(name)", panel.selectedLayer == i, panel.width * 0.45) { panel.selectedLayer = i }
                wp_same_line(0)
                if let kind = LayerKinds.kind(type), let opacity = kind.properties["opacity"] {
                    widgets.itemWidth = panel.width * 0.3
                    widgets.property(opacity, at: JSONPath([.key("layers"), .index(i), .key("opacity")]), value: layer["opacity"])
                    widgets.itemWidth = itemWidth
                }
                wp_pop_id()
            }
        }

        // The selected layer's properties.
        if panel.selectedLayer < layerValues.count {
            let layer = layerValues[panel.selectedLayer]
            var type = "?"
            if case .string(let t)? = layer["type"]?.kind { type = t }
            if let kind = LayerKinds.kind(type), wp_collapsing_header("layers[\(panel.selectedLayer)]: \(type)###selected", true) {
                wp_push_id_string("layer\(panel.selectedLayer)")
                widgets.table(kind.properties, at: JSONPath([.key("layers"), .index(panel.selectedLayer)]), object: layer,
                              skipping: ["type", "opacity"])
                if panel.selectedLayer < scene.layers.count, case .sky(let sky)? = scene.layers[panel.selectedLayer].content as? SkyContent {
                    for note in SkyNotes.notes(for: sky, in: scene, time: playback.time) { wp_text_disabled(note) }
                }
                wp_pop_id()
            }
        }
        if wp_collapsing_header("Scene", false) {
            widgets.table(Scene.properties, at: JSONPath([]), object: editor.document.root, skipping: ["layers", "metadata", "$schema", "description"])
        }
        return (widgets.edits, widgets.released)
    }

    /// The scene's weather, an edit of the document's `weather` (its `preset` where it is an
    /// object) like any other: saved by Ctrl-S, one undo step. The keys 1–6, W and the console's
    /// `weather` stay a view-only cross-fade from now.
    func weatherWidget(itemWidth: Float) {
        let presets = WeatherPreset.allCases
        let value = (try? editor.document.value(at: JSONPath([.key("weather")]))) ?? nil
        var path = JSONPath([.key("weather")])
        if case .object? = value?.kind { path = path.appending("preset") }
        var index = Int32(presets.firstIndex(of: scene.weather?.preset ?? .clear) ?? 0)
        wp_set_next_item_width(itemWidth)
        if withCStrings(presets.map(\.rawValue), { wp_combo("weather", &index, $0, Int32(presets.count)) }) {
            // The file's weather now: changes made with keys no longer apply over it.
            playback.forgetWeatherChanges()
            do {
                try edit(command: "set") { try $0.set(path, to: JSONValue.string(presets[Int(index)].rawValue).serialized()) }
                panel.editError = nil
            } catch {
                let message = (error as? CommandError)?.message ?? "\(error)"
                printError("set: \(message)")
                panel.editError = message
            }
        }
        wp_tooltip("The scene's weather (saved with Ctrl-S). Keys 1-6 and the console's weather NAME cross-fade from now without editing the file.")
    }

    /// The Save as… field's first text: beside the scene file as NAME-copy.json, or
    /// welkin-default.json in the working folder for the built-in scene.
    static func saveAsSuggestion(_ path: String?) -> String {
        guard let path else { return "welkin-default.json" }
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent
        return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(stem + "-copy.json")
    }

    /// `text` as a NUL-terminated buffer of `size` bytes for a text field.
    static func textBuffer(_ text: String, size: Int) -> [CChar] {
        var buffer = [CChar](repeating: 0, count: size)
        for (i, byte) in text.utf8.prefix(size - 1).enumerated() { buffer[i] = CChar(bitPattern: byte) }
        return buffer
    }

    /// Save as… pressed (or Enter in its field): `save PATH`, its refusal shown in the panel too.
    func saveAsFromPanel() {
        let path = String(decoding: panel.saveAsPath.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        do {
            guard !path.isEmpty else { throw CommandError("expected a file name") }
            try saveDocument(as: path)
            panel.editError = nil
        } catch {
            let message = (error as? CommandError)?.message ?? (error as? SceneDocument.EditError)?.message ?? "\(error)"
            printError("save: \(message)")
            panel.editError = message
        }
        needsPresent(frames: 1)
    }

    /// The stats line (the panel's, the console's `stats`).
    var statsLine: String { stats.line(paused: playback.paused, gpuMilliseconds: gpuFrameMilliseconds) }

    /// Makes the panel's edits through the console's edit path; a drag folds into one undo step,
    /// and its answer is printed when it is released.
    func applyPanelEdits(_ edits: [WidgetEdit], released: Bool) {
        for edit in edits {
            do {
                try self.edit(command: "set", quiet: edit.continuing) {
                    try $0.set(edit.path, to: edit.json, merging: edit.continuing ? edit.widget : nil)
                }
                panel.editError = nil
            } catch {
                let message = (error as? CommandError)?.message ?? "\(error)"
                // Said once for a drag that keeps being refused.
                if panel.editError != message { printError("set: \(message)") }
                panel.editError = message
                needsPresent(frames: 1)
            }
        }
        if released {
            editor.endMerge()
            // A drag's edits were quiet: its answer, once.
            if edits.allSatisfy(\.continuing) { print(editor.currentLabel) }
        }
    }

    // MARK: - Errors on screen

    func buildErrorOverlay(_ fb: SIMD2<Int>) {
        let margin: Float = 10
        let width = max(200, Float(fb.x) - panel.width - 2 * margin)
        if wp_begin_overlay("##errors", margin, Float(fb.y) - margin, width) {
            let messages = reload.failures.messages.sorted { $0.key < $1.key }.map(\.value)
            for message in Set(messages).sorted() {
                wp_text_colored(1, 0.45, 0.4, 1, "!")
                wp_same_line(0)
                wp_text_wrapped(message)
            }
        }
        wp_end()
    }
}
