// Drawing and showing a frame: the Frame at the clock's time for the window's framebuffer, the
// renderer's output blitted unscaled, the panel and the error overlay over it, the title.

@preconcurrency import CEpoxy
import CGLFW
import Foundation
import Synchronization
import WelkinCore
import WelkinGL
import WelkinImage
import WelkinPanelShim

extension Viewer {
    func framebufferSize() -> SIMD2<Int> {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetFramebufferSize(window, &w, &h)
        return SIMD2(Int(w), Int(h))
    }

    func contentScale() -> SIMD2<Double> {
        var x: Float = 1, y: Float = 1
        glfwGetWindowContentScale(window, &x, &y)
        return SIMD2(Double(x > 0 ? x : 1), Double(y > 0 ? y : 1))
    }

    /// The part of the window the picture may take, from its top left corner: all of it, or with
    /// the panel up, what the panel leaves on its left (so no part of the picture is under the
    /// panel), at least a third of the window (a window narrower than that lets the panel cover the rest).
    func pictureArea(_ fb: SIMD2<Int>) -> SIMD2<Int> {
        guard panel.visible else { return fb }
        let panelPixels = panel.width > 0 ? panel.width : Self.panelWidth * Float(contentScale().x)
        return SIMD2(max(max(1, fb.x / 3), fb.x - Int(panelPixels.rounded())), fb.y)
    }

    /// Where the picture of a scene `size` points is drawn in the window (framebuffer pixels, from
    /// the top left): `.fit`, the scene's own framing scaled to fit the picture's area and centred in
    /// it (letterboxed: widening the window never re-frames the scene); `.fill`, the whole area, the
    /// scene re-framed as one of the area's size in points (Framing).
    func pictureRect(_ fb: SIMD2<Int>, sceneSize size: SIMD2<Int>? = nil) -> PictureRect {
        let area = pictureArea(fb)
        guard framing == .fit else { return PictureRect(origin: .zero, size: area) }
        return PictureRect.fitting(size ?? scene.size, in: area)
    }

    /// `interactive`: as the viewer draws while playing (FrameOptions.interactive); false for the
    /// final picture (a screenshot).
    func makeFrame(_ scene: Scene, _ rect: PictureRect, interactive: Bool = true) -> Frame {
        var shown = scene
        for i in panel.hiddenLayers where i < shown.layers.count { shown.layers[i].opacity = 0; shown.layers[i].opacityAnimation = nil }
        // Interactive: the clouds march at their viewer quality and are refined while still, and
        // an edited atmosphere's tables are built off this thread (the last one drawn meanwhile).
        if interactive { shown = TablesInBackground.shared.scene(shown, time: playback.time) }
        // Fit: the scene's own framing at the picture's size, as `welkin render --size` draws it;
        // fill: the window's points (its content scale) re-frame the scene.
        let options = FrameOptions(interactive: interactive)
        var frame = framing == .fit
            ? Frame(scene: shown, time: playback.time, pixelSize: rect.size, options: options)
            : Frame(scene: shown, time: playback.time, pixelSize: rect.size, scale: contentScale(), options: options)
        frame.frameNumber = playback.frameNumber
        // The window is an sRGB surface: a Display P3 scene is shown as its sRGB picture (the same
        // colours, clipped per channel in linear light where P3 reaches outside sRGB; docs/export.md).
        frame.outputColorSpace = .srgb
        var cx = 0.0, cy = 0.0
        glfwGetCursorPos(window, &cx, &cy)
        let scale = contentScale()
        // The pointer in the picture's pixels, from its lower left corner.
        frame.mouse = SIMD2(Float(cx * scale.x - Double(rect.origin.x)), Float(Double(rect.origin.y + rect.size.y) - cy * scale.y))
        if scene.layers.contains(where: { $0.content is ShaderLayer }) {
            // Shadertoy's inputs: the left button over the picture (not the panel), the keys by
            // JavaScript key code (ShadertoyKeys), while the panel does not have the keyboard.
            let panelHasMouse = panel.visible && panel.started && wp_want_mouse()
            let down = !panelHasMouse && glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS
            shadertoyMouse.update(position: frame.mouse, down: down)
            var held: Set<Int> = []
            if !(panel.visible && panel.started && wp_want_keyboard()) {
                for (code, key) in ShadertoyKeys.glfw where glfwGetKey(window, key) == GLFW_PRESS { held.insert(code) }
            }
            shadertoyKeyboard.update(held: held)
            frame.shadertoyMouse = shadertoyMouse.value
            frame.keyboard = shadertoyKeyboard
        }
        return frame
    }

    /// Draws a frame of the candidate scene if there is one (deciding its fate), else of `scene`,
    /// and shows it. Returns false when the frame was abandoned because the window is closing.
    func drawFrame(_ fb: SIMD2<Int>) -> Bool {
        if let candidate = reload.candidate {
            guard let outcome = draw(candidate.scene, pictureRect(fb, sceneSize: candidate.scene.size)) else { return false }
            if !settleCandidate(outcome) {
                // Refused: the last good scene is drawn instead, so the failed one never shows.
                guard let outcome = draw(scene, pictureRect(fb)) else { return false }
                report(outcome)
            }
        } else {
            guard let outcome = draw(scene, pictureRect(fb)) else { return false }
            report(outcome)
        }
        playback.frameNumber += 1
        return present(fb)
    }

    /// Shows the renderer's output in the window, with the panel and the error overlay over it.
    /// Returns false when the frame was abandoned because the window is closing.
    func present(_ fb: SIMD2<Int>) -> Bool {
        try? context.makeCurrent()
        epoxy_glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), renderer.outputFramebuffer)
        epoxy_glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), 0)
        epoxy_glViewport(0, 0, GLsizei(fb.x), GLsizei(fb.y))
        // The picture unscaled, at its place in the picture's area (PictureRect: centred when
        // letterboxed, the top left when it fills the area); the letterbox's grey where it does not
        // reach (beside the panel, around a fitted scene, a window resized since it was drawn).
        let area = pictureArea(fb)
        let output = renderer.outputSize
        let origin = framing == .fit ? PictureRect.fitting(output, in: area, scaling: false).origin : .zero
        let shown = pointwiseMax(pointwiseMin(output, fb &- origin), .zero)
        if renderer.outputFramebuffer == 0 || shown != fb {
            epoxy_glClearColor(Self.letterboxGrey, Self.letterboxGrey, Self.letterboxGrey, 1)
            epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        if renderer.outputFramebuffer != 0 && shown.x > 0 && shown.y > 0 {
            let top = output.y
            let bottom = fb.y - origin.y - shown.y
            epoxy_glBlitFramebuffer(0, GLint(top - shown.y), GLint(shown.x), GLint(top),
                                    GLint(origin.x), GLint(bottom), GLint(origin.x + shown.x), GLint(bottom + shown.y),
                                    GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        }
        epoxy_glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        if drawsImGui { drawImGui(fb) }
        // The blit of a 2560×1600 frame takes 30–50 ms on llvmpipe: a quit need not wait for it.
        do { try renderer.finishWhileRendering() } catch { return false }
        if let path = recording.pendingWindowShot {
            recording.pendingWindowShot = nil
            saveWindowShot(to: path, fb)
        }
        recordFrame(fb)
        glfwSwapBuffers(window)
        return true
    }

    /// What drawing one frame came to.
    struct DrawOutcome {
        /// The layers left out (the frame was drawn without them).
        var layerFailures: [GLRenderer.LayerFailure] = []
        /// Nothing could be drawn (the window keeps the last picture).
        var frameError: Error?
    }

    /// Draws a frame of `scene` into the renderer's output; nil when the frame was abandoned.
    func draw(_ scene: Scene, _ rect: PictureRect, interactive: Bool = true) -> DrawOutcome? {
        do {
            let frame = makeFrame(scene, rect, interactive: interactive)
            stats.count(frame)
            let reused = renderer.reusedFrames
            defer {
                stats.reused = renderer.reusedFrames != reused
                if let plan = renderer.lastPlan { (stats.passes, stats.targetBytes) = (plan.passes.count, plan.bytes) }
            }
            if timesNextFramesPasses {
                // Console `passes`: this frame drawn in full with every draw timed.
                timesNextFramesPasses = false
                renderer.forgetLastFrame()
                let entries = try renderer.drawTimingPasses(frame)
                let total = entries.reduce(0) { $0 + $1.wall }
                print("passes of the frame at t = \(String(format: "%.2f", frame.time)) s, \(frame.pixelSize.x)×\(frame.pixelSize.y)"
                      + " (the GPU finished before and after each draw\(entries.first?.gpu == nil ? "; wall time" : "; GPU time from timestamp queries")):")
                for e in entries { print("  " + e.line) }
                print(String(format: "  %8.2f ms in all", total))
                return DrawOutcome()
            }
            try renderer.draw(frame)
            return DrawOutcome()
        } catch is GLRenderer.FrameAbandoned {
            return nil
        } catch {
            if renderer.layerFailures.isEmpty { return DrawOutcome(frameError: error) }
            return DrawOutcome(layerFailures: renderer.layerFailures)
        }
    }

    /// The GPU time of the latest frame whose timer query has come back (GLRenderer's GPUTimer,
    /// read without waiting); nil where the context cannot time frames (llvmpipe).
    var gpuFrameMilliseconds: Double? { renderer.gpuTimer.frameMilliseconds }

    /// Sets the title at the next frame (after anything it shows changed).
    func refreshTitle() { stats.lastTitleUpdate = 0 }

    func updateTitle(now: TimeInterval) {
        // The fps figure at most four times a second; the ⚠ mark as soon as it changes.
        let failing = !reload.failures.isEmpty
        guard stats.titleDue(now: now, paused: playback.paused, recording: recording.isRecording, failing: failing) else { return }
        stats.lastTitleUpdate = now
        let average = stats.averageFrameSeconds
        var title = "\(scene.name)\(editor.isDirty ? " •" : "") — t \(String(format: "%.1f", playback.time)) s"
        if playback.paused {
            title += " — paused"
        } else {
            title += " — \(String(format: "%.0f", average > 0 ? 1 / average : 0)) fps, \(String(format: "%.1f", average * 1000)) ms"
            if let gpu = gpuFrameMilliseconds { title += " (GPU \(String(format: "%.1f", gpu)) ms)" }
            if playback.speed != 1 { title += " — \(Playback.speedText(playback.speed))" }
        }
        if let text = recording.title { title += " — \(text)" }
        if failing { title += " — ⚠ error (see terminal)" }
        glfwSetWindowTitle(window, title)
        stats.titleShowsFailure = failing
    }
}

/// Where the picture goes in the window: framebuffer pixels from the window's top left corner.
struct PictureRect: Equatable {
    var origin: SIMD2<Int>
    var size: SIMD2<Int>

    /// `size` scaled (when `scaling`) to the largest that fits in `area` with its aspect kept, at
    /// least a pixel each way, and centred in it.
    static func fitting(_ size: SIMD2<Int>, in area: SIMD2<Int>, scaling: Bool = true) -> PictureRect {
        guard size.x > 0, size.y > 0, area.x > 0, area.y > 0 else { return PictureRect(origin: .zero, size: pointwiseMax(area, SIMD2(1, 1))) }
        var fitted = size
        if scaling {
            let s = min(Double(area.x) / Double(size.x), Double(area.y) / Double(size.y))
            fitted = SIMD2(Int((Double(size.x) * s).rounded()), Int((Double(size.y) * s).rounded()))
            fitted = pointwiseMax(pointwiseMin(fitted, area), SIMD2(1, 1))
        }
        return PictureRect(origin: pointwiseMax((area &- fitted) / 2, .zero), size: fitted)
    }

    /// Whether a window point (framebuffer pixels from the top left) is on the picture.
    func contains(_ point: SIMD2<Double>) -> Bool {
        point.x >= Double(origin.x) && point.y >= Double(origin.y)
            && point.x < Double(origin.x + size.x) && point.y < Double(origin.y + size.y)
    }
}

/// How the viewer frames a scene in its window (A, the console's `framing`).
enum Framing: String, CaseIterable {
    /// The scene's own size and framing, scaled to fit the picture's area and letterboxed.
    case fit
    /// The whole area, the scene re-framed as one of the window's size (its points × content scale).
    case fill
}

/// The keys Shadertoy's keyboard texture has, by JavaScript key code, as GLFW names them.
enum ShadertoyKeys {
    static let glfw: [(code: Int, key: Int32)] = {
        var out: [(Int, Int32)] = []
        for c in 65...90 { out.append((c, Int32(c))) }            // A…Z: the same codes
        for c in 48...57 { out.append((c, Int32(c))) }            // 0…9
        out += [(32, GLFW_KEY_SPACE), (13, GLFW_KEY_ENTER), (27, GLFW_KEY_ESCAPE), (9, GLFW_KEY_TAB), (8, GLFW_KEY_BACKSPACE),
                (37, GLFW_KEY_LEFT), (38, GLFW_KEY_UP), (39, GLFW_KEY_RIGHT), (40, GLFW_KEY_DOWN),
                (16, GLFW_KEY_LEFT_SHIFT), (16, GLFW_KEY_RIGHT_SHIFT), (17, GLFW_KEY_LEFT_CONTROL), (17, GLFW_KEY_RIGHT_CONTROL),
                (18, GLFW_KEY_LEFT_ALT), (18, GLFW_KEY_RIGHT_ALT), (33, GLFW_KEY_PAGE_UP), (34, GLFW_KEY_PAGE_DOWN),
                (35, GLFW_KEY_END), (36, GLFW_KEY_HOME), (45, GLFW_KEY_INSERT), (46, GLFW_KEY_DELETE)]
        for f in 0..<12 { out.append((112 + f, GLFW_KEY_F1 + Int32(f))) }
        return out
    }()
}
