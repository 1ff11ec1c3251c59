// `welkin values SCENE PATH`: a property's value at chosen times, as the scene draws it.

import Foundation
import WelkinCore

extension Commands {
    static let values = Command(
        name: "values", summary: "Print a property's value at chosen times (animations and keyframes evaluated).",
        usage: "welkin values SCENE PATH [--times T1,T2,… | --from T --to T --step S] [--json]",
        discussion: """
        PATH names a property as the console's get does: layers[2].shadow.radius, layers[0].stops[1].color,
        camera.yaw. A constant prints the same at every time; keyframes and {"from", "to", "animation"}
        animations are evaluated with Welkin's timing curves and springs (docs/animation.md). A key the
        file leaves out prints its default. Without --times or --from, the value at t = 0. --json prints
        [{"time": t, "value": v}, …] with numbers as numbers and colours as [r, g, b, a] (straight sRGB).
        """,
        options: [
            OptionSpec(name: "--times", value: "T1,T2,…", help: "Scene times in seconds, comma-separated."),
            OptionSpec(name: "--from", value: "T", help: "First time of an even series (with --to and --step)."),
            OptionSpec(name: "--to", value: "T", help: "Last time of the series (included when the steps land on it)."),
            OptionSpec(name: "--step", value: "S", help: "Seconds between times of the series (default 0.1)."),
            OptionSpec(name: "--json", help: "Print a JSON array of {time, value}."),
        ],
        run: { args in
            let command = named("values")!
            guard args.positionals.count == 2 else {
                throw UsageError(message: "expected a scene file and a property path, like: welkin values Scenes/mesh-text.json layers[1].opacity",
                                 command: command)
            }
            let (file, pathText) = (args.positionals[0], args.positionals[1])
            func seconds(_ text: String, _ name: String) throws -> Double {
                guard let t = Double(text.trimmingCharacters(in: .whitespaces)), Scene.timeRange.contains(t) else {
                    throw UsageError(message: "\(name) expects seconds in 0…\(Int(Scene.timeRange.upperBound)), got '\(text)'", command: command)
                }
                return t
            }
            var times: [Double] = [0]
            if let list = args.value("--times") {
                guard args.value("--from") == nil && args.value("--to") == nil else {
                    throw UsageError(message: "give --times or --from/--to/--step, not both", command: command)
                }
                times = try list.split(separator: ",", omittingEmptySubsequences: false).map { try seconds(String($0), "--times") }
            } else if let fromText = args.value("--from") {
                guard let toText = args.value("--to") else { throw UsageError(message: "--from needs --to", command: command) }
                let from = try seconds(fromText, "--from"), to = try seconds(toText, "--to")
                guard to >= from else { throw UsageError(message: "--to must not be before --from", command: command) }
                var step = 0.1
                if let text = args.value("--step") {
                    guard let s = Double(text), s.isFinite, s > 0 else {
                        throw UsageError(message: "--step expects seconds greater than 0, got '\(text)'", command: command)
                    }
                    step = s
                }
                let count = Int(((to - from) / step + 1e-9).rounded(.down)) + 1
                guard count <= 100_000 else { throw UsageError(message: "--from/--to/--step make \(count) times; at most 100000", command: command) }
                times = (0..<count).map { ((from + Double($0) * step) * 1e9).rounded() / 1e9 }
            } else if args.value("--to") != nil || args.value("--step") != nil {
                throw UsageError(message: "--to and --step go with --from", command: command)
            }
            // The scene must load (its errors say what is wrong); the document gives the property.
            _ = try SceneLoader.loadReportingEveryError(path: file)
            let document = try SceneDocument(bytes: try SceneLoader.readFile(path: file))
            let path: JSONPath
            do { path = try JSONPath(parsing: pathText) } catch {
                throw UsageError(message: "'\(pathText)' is not a property path (like layers[0].opacity): \(error)", command: command)
            }
            let track = try PropertyTrack(document: document, path: path, file: file)
            if args.flag("--json") {
                print("[" + times.map { "{\"time\": \(JSONValue.numberText($0)), \"value\": \(track.value(at: $0).jsonText)}" }.joined(separator: ", ") + "]")
            } else {
                for t in times { print("t = \(JSONValue.numberText(t)) s  \(path) = \(track.value(at: t).jsonText)") }
            }
            return 0
        })
}
