// PipelineProbe: scene bytes through everything a user's file meets on the CPU — decode and
// validate, a Frame at a few times, the reference renderer at a tiny size.
//
// One routine for the libFuzzer target (Sources/WelkinFuzz) and the regression tests that replay
// what it found (Tests/Fuzz/regressions): whatever the bytes, this must return, quickly, without
// trapping. docs/robustness.md says how to run both.

import WelkinCore

public enum PipelineProbe {
    /// The scene times every input is drawn at (the mutation harness's too).
    public static let times: [Double] = [0, 1.5, 7, 1000]
    /// Pixels: tiny, so an input's cost is its simulation and set-up, not its pixel count.
    public static let size = SIMD2(16, 9)

    /// What became of one input.
    public enum Outcome: Equatable, Sendable {
        /// The decoder refused it (the message a user would see).
        case rejected(String)
        /// Drawn at every time; the number of non-transparent pixels of the last image (so the
        /// work cannot be optimised away).
        case rendered(Int)
        /// Valid, but holds a layer only the GPU draws (a user shader).
        case unsupported
    }

    /// Runs `bytes` through the pipeline. `directory` resolves the scene's relative paths.
    public static func run(_ bytes: [UInt8], file: String = "probe.json", directory: String? = nil,
                           times: [Double] = times, size: SIMD2<Int> = size, threads: Int? = 1) -> Outcome {
        let scene: Scene
        do {
            scene = try SceneLoader.decode(bytes, file: file, directory: directory)
        } catch {
            return .rejected("\(error)")
        }
        var covered = 0
        for t in times {
            let frame = Frame(scene: scene, time: t, pixelSize: size)
            do {
                let image = try ReferenceRenderer(threads: threads).render(frame)
                covered = stride(from: 3, to: image.pixels.count, by: 4).reduce(0) { $0 + (image.pixels[$1] > 0 ? 1 : 0) }
            } catch is ReferenceUnsupportedError {
                return .unsupported
            } catch {
                return .rejected("\(error)")
            }
        }
        return .rendered(covered)
    }
}
