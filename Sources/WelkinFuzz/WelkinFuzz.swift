// WelkinFuzz: the libFuzzer target, and (in an ordinary build) a replay tool for its inputs.
//
// Built with `make fuzz-build` (-sanitize=fuzzer,address and -D WELKIN_FUZZ, in .build/fuzz), the
// target feeds each input through PipelineProbe — decode, Frame at a few times, the CPU reference
// at 16×9 — and libFuzzer's own main drives it. In an ordinary `swift build` it is a small command:
// `WelkinFuzz FILE...` runs files through the same probe and prints what became of each, with the
// time it took (how a crash or slow input the fuzzer found is reproduced). docs/robustness.md.

import Foundation
import WelkinCore
import WelkinReference

/// Relative paths in inputs (shader files, sprite images) resolve against Scenes/, as the seed
/// corpus's scenes were written there.
let scenesDirectory = FileManager.default.currentDirectoryPath + "/Scenes"

#if WELKIN_FUZZ
/// A fortieth of the frame's simulation budget: the same code paths, and an input flagged as slow
/// (`-timeout`, in this slower sanitised build) is one whose work is not bounded by the budget.
/// (A tenth was too much: AddressSanitizer makes the particle kernel about 30 times slower, and an
/// imported effect with end values at t = 1000 s, a budgeted history of 0.23 s in release, took
/// 7.2 s here: Tests/Fuzz/regressions/import-extras-1000s.json.)
let budgetSet: Void = { SimulationCache.shared.workBudget = SimulationPlan.workBudget / 40 }()

@_cdecl("LLVMFuzzerTestOneInput")
public func welkinFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = budgetSet
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = PipelineProbe.run(bytes, file: "fuzz.json", directory: scenesDirectory)
    // Inputs are independent: no emitter state carries over (and the cache's memory stays small).
    SimulationCache.shared.removeAll()
    return 0
}

/// libFuzzer's driver (compiler-rt, LLVM ≥ 13): runs the fuzzing loop with libFuzzer's options.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point as `<module>_main` (and points `main` at it), so the
/// fuzz build defines that and hands over to libFuzzer's driver instead of libFuzzer's own main.
@_cdecl("WelkinFuzz_main")
public func welkinFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, welkinFuzzTestOneInput)
}
#else
@main
struct WelkinFuzzReplay {
    static func main() {
        let paths = Array(CommandLine.arguments.dropFirst())
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: WelkinFuzz FILE... (runs each through decode, Frame and the CPU reference)\n".utf8))
            exit(2)
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read"); continue
            }
            let start = DispatchTime.now()
            let outcome = PipelineProbe.run(Array(data), file: path, directory: scenesDirectory)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            print("\(path): \(outcome) (\(String(format: "%.1f", ms)) ms)")
            SimulationCache.shared.removeAll()
        }
    }
}
#endif
