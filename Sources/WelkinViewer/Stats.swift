// What the last frames cost — frame times, live particles, draw passes — for the title, the
// panel's stats line and the console's `stats`, and when the title last showed them.

import Foundation
import WelkinCore

struct Stats {
    /// Frame times kept for the average.
    static let window = 120
    /// The title's fps figure changes at most this often (seconds); the ⚠ mark at once.
    static let titleInterval = 0.25

    /// The last frame drawn: live particles and draw passes, and how long it took.
    var particles = 0
    var draws = 0
    var lastFrameSeconds = 0.0
    /// The last frame's plan (FramePlan): its passes and its targets' memory; and whether the frame
    /// was the last picture again (GLRenderer.reusesUnchangedFrames), not drawn.
    var passes = 0
    var targetBytes = 0
    var reused = false
    private(set) var frameTimes: [Double] = []
    /// When the title was last set (0: set it at the next frame), and whether it showed ⚠.
    var lastTitleUpdate: TimeInterval = 0
    var titleShowsFailure = false

    mutating func count(_ frame: Frame) {
        (particles, draws) = frame.stats
    }

    mutating func recordFrame(seconds: Double) {
        lastFrameSeconds = seconds
        frameTimes.append(seconds)
        if frameTimes.count > Self.window { frameTimes.removeFirst(frameTimes.count - Self.window) }
    }

    var averageFrameSeconds: Double { frameTimes.isEmpty ? 0 : frameTimes.reduce(0, +) / Double(frameTimes.count) }

    /// Whether the title is due an update at `now`.
    func titleDue(now: TimeInterval, paused: Bool, recording: Bool, failing: Bool) -> Bool {
        now - lastTitleUpdate > Self.titleInterval || recording && now - lastTitleUpdate > 1 || paused || frameTimes.count < 2
            || titleShowsFailure != failing
    }

    /// "58 fps, 17.2 ms a frame (GPU 3.1 ms), 1234 particles, 5 draws; 7 passes, 40.6 MB of targets"
    /// (the GPU time where the context's timer queries time frames; ", the last picture again" when
    /// the frame was not drawn because nothing in it changed).
    func line(paused: Bool, gpuMilliseconds: Double?) -> String {
        let average = averageFrameSeconds
        let fps = paused || average == 0 ? "paused" : String(format: "%.0f fps", 1 / average)
        let drawText = draws == 1 ? "1 draw" : "\(draws) draws"
        let gpu = gpuMilliseconds.map { " (GPU \(String(format: "%.1f", $0)) ms)" } ?? ""
        let plan = "; \(passes) passes, \(String(format: "%.1f", Double(targetBytes) / 1_000_000)) MB of targets" + (reused ? ", the last picture again" : "")
        return "\(fps), \(String(format: "%.1f", lastFrameSeconds * 1000)) ms a frame\(gpu), \(particles) particles, \(drawText)" + plan
    }
}

extension Frame {
    /// Live particles and draw passes (one a layer, one a sprite batch), for the stats line.
    var stats: (particles: Int, draws: Int) {
        var particles = 0, draws = 0
        for layer in layers {
            if let p = layer as? ParticleDraw {
                particles += p.instanceCount
                draws += p.batches.count
            } else {
                draws += 1
            }
        }
        return (particles, draws)
    }
}
