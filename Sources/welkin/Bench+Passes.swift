// `welkin bench --passes SCENE`: the frame's plan (FramePlan) with what each layer costs.

import Foundation
import WelkinCore
import WelkinGL

extension Commands {
    /// Prints the plan of SCENE's frame at t = 1.5 s (1280×720), then each top-level layer's median
    /// time over `runs` frames (the GPU finished after each layer), and the targets' memory.
    static func runPassesReport(_ path: String, runs: Int, args: Arguments) throws -> Int32 {
        let scene = try SceneLoader.load(path: path)
        let renderer = try headlessRenderer(args)
        let size = SIMD2(1280, 720)
        let frame = Frame(scene: scene, time: 1.5, pixelSize: size, options: FrameOptions(interactive: true))
        let plan = renderer.plan(frame)
        renderer.measuresLayers = true
        var samples: [Int?: [Double]] = [:]
        var totals: [Double] = []
        for run in 0..<(runs + 2) {
            let start = DispatchTime.now().uptimeNanoseconds
            // The frames the viewer draws while the scene plays (a still frame of a clouds layer
            // would march slices of its final picture instead).
            let playing = Frame(scene: scene, time: 1.5 + Double(run) / 60, pixelSize: size, options: FrameOptions(interactive: true))
            try inScene(path) { try renderer.draw(playing) }
            renderer.finish()
            guard run >= 2 else { continue }   // two warm-up frames (programs built, tables made)
            totals.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            for (position, ms) in renderer.layerTimes { samples[position, default: []].append(ms) }
        }
        renderer.measuresLayers = false
        // Then every draw timed on its own (PassTiming), in the order drawn, on the frames the
        // viewer draws while the scene plays (t = 1.5 + k/60 s): nothing is reused or refined
        // from a still frame (a still viewer frame's clouds march a slice of the final picture).
        var draws: [[PassTiming.Entry]] = []
        for run in 0..<(runs + 1) {
            let playing = Frame(scene: scene, time: 1.5 + Double(run + 1) / 60, pixelSize: size, options: FrameOptions(interactive: true))
            let entries = try inScene(path) { try renderer.drawTimingPasses(playing) }
            if run >= 1 { draws.append(entries) }
        }
        func median(_ v: [Double]) -> Double {
            let s = v.sorted()
            return s.isEmpty ? 0 : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        print("\(path): the frames from t = 1.5 s as the viewer draws them while the scene plays (t = 1.5 + k/60 s), \(size.x)×\(size.y);"
              + " medians of \(runs) frames, the GPU finished after each layer")
        print("")
        print("targets (\(plan.targets.count), \(mb(plan.bytes)); \(mb(plan.transientBytes)) of them live within the frame only):")
        for t in plan.targets {
            print("  \(t.key.padding(toLength: 18, withPad: " ", startingAt: 0)) \(t.format.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))"
                  + " \(t.size.x)×\(t.size.y)  \(mb(t.bytes).padding(toLength: 9, withPad: " ", startingAt: 0)) \(t.lifetime.rawValue): \(t.why)")
        }
        print("")
        print("passes (\(plan.passes.count), \(plan.drawPasses.count) of them draws):")
        var shown: Set<Int?> = []
        for p in plan.passes {
            let layer = p.layer.map { "layer \($0)" } ?? "frame"
            if shown.insert(p.layer).inserted {
                let ms = samples[p.layer].map { String(format: "%8.2f ms", median($0)) } ?? "        —"
                let kind = p.layer.map { frame.layers.indices.contains($0) ? " (\(type(of: frame.layers[$0])))" : "" } ?? ""
                print("  \(layer)\(kind): \(ms)")
            }
            let reads = p.reads.isEmpty ? "" : p.reads.joined(separator: ", ") + " → "
            let scissor = p.scissor.map { " scissor [\($0.x), \($0.y), \($0.z), \($0.w))" } ?? ""
            print("      \(p.name): \(p.program)  \(reads)\(p.writes) (\(p.blend.rawValue))\(scissor)")
        }
        print("")
        // The draws as timed: each run's list is the same sequence (the frame is the same); the
        // median of each entry over the runs.
        let sequence = draws.first ?? []
        let same = draws.allSatisfy { $0.map(\.program) == sequence.map(\.program) && $0.map(\.target) == sequence.map(\.target) }
        let gpu = sequence.first?.gpu != nil
        print("draws, in order, while it plays (t = 1.5 + k/60 s; \(sequence.count); consecutive draws of one program into one target together; medians of \(draws.count) frames,"
              + " the GPU finished before and after each\(gpu ? "; GPU time from timestamp queries" : ": wall time, as a software rasteriser's timer queries do not time work")):")
        if same {
            var sum = 0.0
            for (i, e) in sequence.enumerated() {
                var m = e
                m.wall = median(draws.map { $0[i].wall })
                if gpu { m.gpu = median(draws.map { $0[i].gpu ?? 0 }) }
                sum += m.wall
                print("  " + m.line)
            }
            print(String(format: "  %8.2f ms  in all", sum))
        } else {
            print("  (the frames drew different sequences: \(draws.map(\.count)) entries; not shown)")
        }
        print("")
        print(String(format: "frame: %.2f ms (median, with the finishes between layers)", median(totals)))
        return 0
    }
}
