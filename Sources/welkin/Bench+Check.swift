// `welkin bench --check`: ratios measured in this run against the limits kept in the repository.
//
// A ratio divides a frame's median by a bare full-screen pass of the same size timed alternately
// with it (gpu.day-gradient.ratio, gpu.scene.NAME.ratio), so it says how much work a frame does,
// not how fast this machine is today. Tests/Bench/limits.json holds one limit per entry; a ratio
// above its limit is a regression and the command exits 1. CI runs it on a few examples.

import Foundation

/// The limits file: `{"limits": {"ENTRY": RATIO, …}}` (other keys are notes for people).
struct BenchLimits {
    var path: String
    var limits: [(name: String, limit: Double)]

    /// The checkout's Tests/Bench/limits.json beside the shaders' checkout, or `path`.
    static func load(_ path: String) throws -> BenchLimits {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(message: "\(path): cannot read the benchmark limits")
        }
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(message: "\(path): not a JSON object")
        }
        guard let table = root["limits"] as? [String: Any], !table.isEmpty else {
            throw Failure(message: "\(path): limits: expected an object of entry names and ratios")
        }
        var limits: [(String, Double)] = []
        for name in table.keys.sorted() {
            guard let value = table[name] as? NSNumber, !(value is Bool), value.doubleValue.isFinite, value.doubleValue > 0 else {
                throw Failure(message: "\(path): limits.\(name): expected a positive number")
            }
            guard name.hasSuffix(".ratio") else {
                throw Failure(message: "\(path): limits.\(name): only ratios are checked (entries ending in .ratio): an absolute time depends on the machine")
            }
            limits.append((name, value.doubleValue))
        }
        return BenchLimits(path: path, limits: limits)
    }
}

extension Commands {
    /// Runs the entries `limits` names (those `filter` keeps), prints each against its limit and
    /// returns 1 when one is over.
    static func runBenchCheck(_ limits: BenchLimits, runs: Int, filter: BenchFilter, args: Arguments) throws -> Int32 {
        let names = limits.limits.map(\.name).filter(filter.wants)
        guard !names.isEmpty else {
            throw Failure(message: "welkin bench --check: no entry of \(limits.path) matches --filter \(filter.parts.joined(separator: ","))")
        }
        let exact = BenchFilter(names.joined(separator: ","))
        var results = try runGPUBenchmarks(runs: runs, filter: exact, args: args)
        results += try runSceneBenchmarks(runs: runs, filter: exact, args: args)
        results += try runDefaultFadeBenchmarks(runs: runs, filter: exact, args: args)
        var failed = 0
        let width = names.map(\.count).max() ?? 0
        print("entry".padding(toLength: width, withPad: " ", startingAt: 0) + "    ratio    limit")
        for (name, limit) in limits.limits where names.contains(name) {
            guard let r = results.first(where: { $0.name == name }) else {
                throw Failure(message: "\(limits.path): limits.\(name): welkin bench has no such entry")
            }
            let over = !(r.value <= limit)
            if over { failed += 1 }
            print(name.padding(toLength: width, withPad: " ", startingAt: 0)
                  + String(format: "  %7.2f  %7.2f", r.value, limit) + (over ? "  REGRESSION" : "  ok"))
        }
        if failed > 0 {
            FileHandle.standardError.write(Data("welkin bench --check: \(failed) of \(names.count) ratios over their limits in \(limits.path)\n".utf8))
            return 1
        }
        print("welkin bench --check: \(names.count) ratios within their limits (\(limits.path))")
        return 0
    }
}
