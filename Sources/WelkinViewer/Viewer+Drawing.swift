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

    /// The part of the window the picture takes, from its top left corner: all of it, or with the
    /// panel up, what the panel leaves on its left (so no part of the picture is under the panel),
    /// at least a third of the window (a window narrower than that lets the panel cover the rest).
    func pictureSize(_ fb: SIMD2<Int>) -> SIMD2<Int> {
        guard panel.visible else { return fb }
        let panelPixels = panel.width > 0 ? panel.width : Self.panelWidth * Float(contentScale().x)
        return SIMD2(max(max(1, fb.x / 3), fb.x - Int(panelPixels.rounded())), fb.y)
    }

    /// `interactive`: as the viewer draws while playing (FrameOptions.interactive); false for the
    /// final picture (a screenshot).
    func makeFrame(_ scene: Scene, _ fb: SIMD2<Int>, interactive: Bool = true) -> Frame {
        var shown = scene
        for i in panel.hiddenLayers where i < shown.layers.count { shown.layers[i].opacity = 0; shown.layers[i].opacityAnimation = nil }
        // Interactive: the clouds march at their viewer quality and are refined while still, and
        // an edited atmosphere's tables are built off this thread (the last one drawn meanwhile).
        if interactive { shown = TablesInBackground.shared.scene(shown, time: playback.time) }
        var frame = Frame(scene: shown, time: playback.time, pixelSize: fb, scale: contentScale(), options: FrameOptions(interactive: interactive))
        frame.frameNumber = playback.frameNumber
        // The window is an sRGB surface: a Display P3 scene is shown as its sRGB picture (the same
        // colours, clipped per channel in linear light where P3 reaches outside sRGB; docs/export.md).
        frame.outputColorSpace = .srgb
        var cx = 0.0, cy = 0.0
        glfwGetCursorPos(window, &cx, &cy)
        let scale = contentScale()
        frame.mouse = SIMD2(Float(cx * scale.x), Float(Double(fb.y) - cy * scale.y))
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
        let picture = pictureSize(fb)
        if let candidate = reload.candidate {
            guard let outcome = draw(candidate.scene, picture) else { return false }
            if !settleCandidate(outcome) {
                // Refused: the last good scene is drawn instead, so the failed one never shows.
                guard let outcome = draw(scene, picture) else { return false }
                report(outcome)
            }
        } else {
            guard let outcome = draw(scene, picture) else { return false }
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
        // The picture at the top left, unscaled; black where it does not reach (beside the panel,
        // or a window resized since the picture was drawn).
        let picture = pointwiseMin(renderer.outputSize, fb)
        if renderer.outputFramebuffer == 0 || picture != fb {
            epoxy_glClearColor(0, 0, 0, 1)
            epoxy_glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        }
        if renderer.outputFramebuffer != 0 {
            let top = renderer.outputSize.y
            epoxy_glBlitFramebuffer(0, GLint(top - picture.y), GLint(picture.x), GLint(top), 0, GLint(fb.y - picture.y), GLint(picture.x), GLint(fb.y),
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
    func draw(_ scene: Scene, _ fb: SIMD2<Int>, interactive: Bool = true) -> DrawOutcome? {
        do {
            let frame = makeFrame(scene, fb, interactive: interactive)
            stats.count(frame)
            let reused = renderer.reusedFrames
            defer {
                stats.reused = renderer.reusedFrames != reused
                if let plan = renderer.lastPlan { (stats.passes, stats.targetBytes) = (plan.passes.count, plan.bytes) }
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
