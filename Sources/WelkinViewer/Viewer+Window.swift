// The window's events and the threads that wake the loop: GLFW's callbacks (keys, mouse, resize),
// SIGINT and SIGTERM, the file watcher's wake thread; and fullscreen.

@preconcurrency import CEpoxy
import CGLFW
import Foundation
import Synchronization
import WelkinCore
import WelkinGL
import WelkinImage
import WelkinPanelShim

extension Viewer {
    // MARK: - Waking

    /// SIGINT and SIGTERM end the loop as a quit does (so unsaved edits are kept), from a dispatch
    /// queue: the flag is atomic, and glfwPostEmptyEvent may be called from any thread.
    func catchInterrupts() {
        let interrupted = self.interrupted
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                interrupted.set(true)
                glfwPostEmptyEvent()
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Wakes the event loop when the watcher has events, so a paused viewer sleeps until then.
    func startWakeThread() {
        let fd = watcher.fileDescriptor
        let running = self.running
        let thread = Thread {
            while running.isSet {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 200) > 0 && p.revents & Int16(POLLIN) != 0 {
                    glfwPostEmptyEvent()
                    usleep(20_000)  // let the main loop drain the events before looking again
                }
            }
        }
        thread.start()
        wakeThread = thread
    }

    // MARK: - Input

    func installCallbacks() {
        glfwSetWindowUserPointer(window, Unmanaged.passUnretained(self).toOpaque())
        glfwSetKeyCallback(window) { window, key, _, action, mods in
            guard action == GLFW_PRESS || action == GLFW_REPEAT, let window,
                  let pointer = glfwGetWindowUserPointer(window) else { return }
            let viewer = Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue()
            // The panel has the keyboard (a value typed into a field): the viewer's keys wait.
            if viewer.panel.visible && viewer.panel.started {
                viewer.needsPresent()
                if wp_want_keyboard() { return }
            }
            // Events are also polled while a frame renders: a quit takes effect at once, other keys
            // wait for the frame to finish (they change what the frame is drawing).
            if (key == GLFW_KEY_ESCAPE || key == GLFW_KEY_Q) && mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT) == 0 {
                glfwSetWindowShouldClose(window, GLFW_TRUE)
            } else {
                viewer.pendingKeys.append((key, mods))
            }
        }
        glfwSetFramebufferSizeCallback(window) { window, _, _ in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
        }
        glfwSetWindowRefreshCallback(window) { window in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
        }
        // Mouse and text input: a paused viewer redraws only on change, so the panel asks to be
        // presented again while it is up. (Installed before ImGui's, which chain to them.)
        glfwSetCursorPosCallback(window) { window, _, _ in Viewer.inputArrived(window) }
        glfwSetMouseButtonCallback(window) { window, _, _, _ in Viewer.inputArrived(window) }
        glfwSetScrollCallback(window) { window, _, y in
            Viewer.inputArrived(window)
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            Unmanaged<Viewer>.fromOpaque(pointer).takeUnretainedValue().look.pendingScroll += y
        }
        glfwSetCharCallback(window) { window, _ in Viewer.inputArrived(window) }
    }

    func toggleFullscreen() {
        if let saved = windowedFrame {
            glfwSetWindowMonitor(window, nil, saved.x, saved.y, saved.width, saved.height, 0)
            windowedFrame = nil
        } else if let monitor = glfwGetPrimaryMonitor(), let mode = glfwGetVideoMode(monitor) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            glfwGetWindowPos(window, &x, &y)
            glfwGetWindowSize(window, &w, &h)
            windowedFrame = (x, y, w, h)
            glfwSetWindowMonitor(window, monitor, 0, 0, mode.pointee.width, mode.pointee.height, mode.pointee.refreshRate)
        }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

/// A flag one thread sets and another reads.
final class Flag: Sendable {
    private let value: Atomic<Bool>

    init(_ value: Bool) { self.value = Atomic(value) }

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set(_ newValue: Bool) { value.store(newValue, ordering: .releasing) }
}
