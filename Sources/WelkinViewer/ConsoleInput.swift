// The viewer's command console: lines read from standard input on a thread of their own, handed to
// the main loop through a lock, with the loop woken by an empty GLFW event.
//
// The main loop owns everything the commands change (GL, the scene, the editor); this thread only
// reads. A blocked read never holds up drawing, and the loop never waits for input.

import CGLFW
import Foundation
import Synchronization

final class ConsoleInput: Sendable {
    private let lines = Mutex<[String]>([])

    /// Starts reading standard input until it ends, waking the loop after each line
    /// (glfwPostEmptyEvent may be called from any thread). At the end of input the viewer goes on.
    func start() {
        // A viewer started in the background of a terminal (`welkin view &`) would be stopped by
        // SIGTTIN at its first read; ignored, the read fails instead and the console just ends.
        signal(SIGTTIN, SIG_IGN)
        let thread = Thread { [self] in
            while let line = readLine(strippingNewline: true) {
                lines.withLock { $0.append(line) }
                glfwPostEmptyEvent()
            }
        }
        thread.name = "welkin console"
        thread.start()
    }

    /// The oldest line not yet taken.
    func take() -> String? {
        lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    var hasPending: Bool { lines.withLock { !$0.isEmpty } }
}
