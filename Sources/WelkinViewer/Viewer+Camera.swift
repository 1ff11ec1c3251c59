// Looking around: drag the picture to turn the sky camera, scroll to zoom, C for the next
// projection. Each is an edit of the scene's top-level `camera` through the console's edit path
// (a drag is one undo step, answered on release; Ctrl-S saves the view into the file).
// Screen-space layers stay where they are.

import CGLFW
import Foundation
import WelkinCore
import WelkinPanelShim

/// The mouse's part in looking around.
struct CameraLook {
    /// A drag in progress: where it started (window pixels) and the camera then.
    var drag: (start: SIMD2<Double>, camera: CameraState)?
    /// Whether the last drag changed the camera (an edit to answer on release).
    var moved = false
    /// Scroll steps waiting for the next frame (GLFW's callback adds them).
    var pendingScroll = 0.0

    /// Each scroll step zooms by this factor.
    static let zoomStep = 1.1
}

extension Viewer {
    /// Whether the scene has anything the camera moves.
    var hasSkySpaceLayers: Bool { scene.layers.contains { $0.content.isSkySpace } || scene.weather != nil }

    /// The camera now, for a picture of `fb` pixels.
    func currentCamera(_ fb: SIMD2<Int>) -> CameraState { CameraState(scene, time: playback.time, pixelSize: fb) }

    /// Starts, follows and ends a drag with the left button over the picture (`rect`: where it is
    /// in the window), and applies scrolled zoom.
    func handleCameraLook(_ rect: PictureRect) {
        let fb = rect.size
        guard hasSkySpaceLayers, fb.x > 0, fb.y > 0 else { look.drag = nil; look.pendingScroll = 0; return }
        let panelHasMouse = panel.visible && panel.started && (wp_want_mouse() || panel.meshDrag != nil
                                                               || meshVertices(layer: panel.selectedLayer) != nil)
        var cx = 0.0, cy = 0.0
        glfwGetCursorPos(window, &cx, &cy)
        let scale = contentScale()
        let cursor = SIMD2(cx * scale.x, cy * scale.y)
        let down = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS
        if look.drag == nil, down, !panelHasMouse, rect.contains(cursor) {
            look.drag = (cursor, currentCamera(fb))
            look.moved = false
        }
        if let drag = look.drag {
            if down {
                // The sky follows the cursor: dragging right turns the view left, dragging down looks up.
                let dpp = drag.camera.centreDegreesPerPixel(pixelSize: fb)
                let delta = cursor - drag.start
                var camera = drag.camera
                camera.yaw = drag.camera.yaw - delta.x * dpp
                camera.yaw -= 360 * (camera.yaw / 360).rounded(.down)
                camera.pitch = min(max(drag.camera.pitch + delta.y * dpp, -90), 90)
                if delta != .zero { setCamera(camera, merging: "camera look") }
            } else {
                look.drag = nil
                if look.moved {
                    editor.endMerge()
                    print(editor.currentLabel)
                }
                look.moved = false
            }
        }
        if look.pendingScroll != 0 {
            let steps = look.pendingScroll
            look.pendingScroll = 0
            guard !panelHasMouse else { return }
            var camera = look.drag?.camera ?? currentCamera(fb)
            let range = Camera.fieldRange(camera.projection)
            camera.fieldOfView = min(max(camera.fieldOfView * pow(CameraLook.zoomStep, -steps), range.lowerBound), range.upperBound)
            setCamera(camera, merging: nil)
        }
    }

    /// C: the next projection (panorama → rectilinear → fisheye), keeping where the camera looks.
    func cycleProjection() {
        guard hasSkySpaceLayers else {
            print("camera: the scene has no sky-space layers to look at")
            return
        }
        var camera = currentCamera(pictureRect(framebufferSize()).size)
        camera = CameraState(projection: camera.projection.next, yaw: camera.yaw, pitch: camera.pitch, fieldOfView: camera.fieldOfView)
        setCamera(camera, merging: nil)
    }

    /// Writes `camera` as the document's top-level `camera` (numbers to 0.1°).
    func setCamera(_ camera: CameraState, merging: String?) {
        func number(_ v: Double) -> JSONValue { .number((v * 10).rounded() / 10) }
        let value = JSONValue.object([("projection", .string(camera.projection.rawValue)), ("yaw", number(camera.yaw)),
                                      ("pitch", number(camera.pitch)), ("fieldOfView", number(camera.fieldOfView))])
        do {
            try edit(command: "set", quiet: merging != nil) {
                try $0.set(JSONPath([.key("camera")]), to: value.serialized(), merging: merging)
            }
            if merging != nil { look.moved = true }
        } catch {
            printError("camera: \((error as? CommandError)?.message ?? "\(error)")")
        }
    }

    /// The panel's camera section: the projection and the camera's numbers now (drag the picture,
    /// scroll or edit them here; a slider's drag is one undo step).
    func cameraWidgets(_ fb: SIMD2<Int>, itemWidth: Float) {
        var camera = currentCamera(fb)
        let projections = Camera.Projection.allCases
        var index = Int32(projections.firstIndex(of: camera.projection) ?? 0)
        wp_set_next_item_width(itemWidth)
        if withCStrings(projections.map(\.rawValue), { wp_combo("projection", &index, $0, Int32(projections.count)) }) {
            camera = CameraState(projection: projections[Int(index)], yaw: camera.yaw, pitch: camera.pitch, fieldOfView: camera.fieldOfView)
            setCamera(camera, merging: nil)
        }
        wp_tooltip("C cycles the projection. Drag the picture to look around, scroll to zoom.")
        let range = Camera.fieldRange(camera.projection)
        let sliders: [(String, WritableKeyPath<CameraState, Double>, ClosedRange<Double>, String)] = [
            ("yaw", \.yaw, 0...360, "%.1f°"), ("pitch", \.pitch, -90...90, "%.1f°"), ("field of view", \.fieldOfView, range, "%.1f°"),
        ]
        for (label, key, bounds, format) in sliders {
            var value = Float(camera[keyPath: key])
            wp_set_next_item_width(itemWidth)
            if wp_slider_float(label, &value, Float(bounds.lowerBound), Float(bounds.upperBound), format) {
                camera[keyPath: key] = Double(value)
                setCamera(camera, merging: "camera panel")
            }
            if wp_item_deactivated_after_edit(), look.moved {
                editor.endMerge()
                print(editor.currentLabel)
                look.moved = false
            }
        }
    }
}
