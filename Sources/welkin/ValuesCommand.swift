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
        options: [Options.Values.times, Options.Values.from, Options.Values.to, Options.Values.step, Options.Values.json],
        run: { args in
            let command = named("values")!
            guard args.positionals.count == 2 else {
                throw UsageError(message: "expected a scene file and a property path, like: welkin values Scenes/mesh-text.json layers[1].opacity",
                                 command: command)
            }
            let (file, pathText) = (args.positionals[0], args.positionals[1])
            typealias V = Options.Values
            var times: [Double] = [0]
            if try args.contains(V.times) {
                guard try !args.contains(V.from) && !args.contains(V.to) else {
                    throw UsageError(message: "give --times or --from/--to/--step, not both", command: command)
                }
                times = try args[V.times]!
            } else if try args.contains(V.from) {
                guard try args.contains(V.to) else { throw UsageError(message: "--from needs --to", command: command) }
                let from = try args[V.from]!, to = try args[V.to]!
                guard to >= from else { throw UsageError(message: "--to must not be before --from", command: command) }
                let step = try args[V.step]
                let count = Int(((to - from) / step + 1e-9).rounded(.down)) + 1
                guard count <= 100_000 else { throw UsageError(message: "--from/--to/--step make \(count) times; at most 100000", command: command) }
                times = (0..<count).map { ((from + Double($0) * step) * 1e9).rounded() / 1e9 }
            } else if try args.contains(V.to) || args.contains(V.step) {
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
            if try args[V.json] {
                print("[" + times.map { "{\"time\": \(JSONValue.numberText($0)), \"value\": \(track.value(at: $0).jsonText)}" }.joined(separator: ", ") + "]")
            } else {
                for t in times { print("t = \(JSONValue.numberText(t)) s  \(path) = \(track.value(at: t).jsonText)") }
            }
            return 0
        })
}

extension Options {
    /// `welkin values`'s own options.
    enum Values {
        static let times = Option<[Double]?>("--times", value: "T1,T2,…", help: "Scene times in seconds, comma-separated.") { list in
            try list.split(separator: ",", omittingEmptySubsequences: false).map { try seconds(String($0)) }
        }
        static let from = Option<Double?>("--from", value: "T", help: "First time of an even series (with --to and --step).", convert: seconds)
        static let to = Option<Double?>("--to", value: "T", help: "Last time of the series (included when the steps land on it).", convert: seconds)
        static let step = Option<Double>("--step", value: "S", help: "Seconds between times of the series (default 0.1).", default: 0.1,
                                         convert: OptionConversion.number("seconds greater than 0", where: { $0 > 0 }))
        static let json = Options.json.with(help: "Print a JSON array of {time, value}.")

        /// A scene time (spaces around it allowed, as in "0, 1.5"); the text at fault is quoted alone.
        @Sendable static func seconds(_ text: String) throws -> Double {
            guard let t = Double(text.trimmingCharacters(in: .whitespaces)), Scene.timeRange.contains(t) else {
                throw OptionValueError(expected: "seconds in 0…\(Int(Scene.timeRange.upperBound))", got: text)
            }
            return t
        }
    }
}
