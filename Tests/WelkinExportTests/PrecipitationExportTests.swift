// The weather's rain and snow in exported code: every depth's cell carries WelkinCore's numbers
// (PrecipitationKind.emitter(in:)), and a schedule's cross-fades are keyframes of the emitter's
// birthRate that equal WeatherState's intensity at their times (and between them, through the
// Bézier timing functions, within the Float control points' rounding). The code type-checks with
// every other example in CodeExportTests.

import Foundation
import XCTest
@testable import WelkinExport
import WelkinCore

final class PrecipitationExportTests: XCTestCase {
    static let scenes = ["phone-snow.json", "snowy-night.json", "weather-tour.json", "storm.json", "rainy-evening.json"]

    static func load(_ name: String) throws -> Scene {
        try SceneLoader.load(path: SwiftCompiler.repository.appendingPathComponent("Scenes/" + name).path)
    }

    /// The text of the file-scope function that starts with `opener`.
    static func function(_ opener: String, in source: String) -> String? {
        guard let start = source.range(of: opener) else { return nil }
        guard let end = source.range(of: "\n}\n", range: start.upperBound..<source.endIndex) else { return nil }
        return String(source[start.lowerBound..<end.upperBound])
    }

    /// The Double after `prefix` on a line of `text` (up to the end of the line, or `until`).
    static func number(_ prefix: String, in text: String, until: String? = nil) -> Double? {
        guard let r = text.range(of: prefix) else { return nil }
        var rest = text[r.upperBound...].prefix { $0 != "\n" }
        if let until, let u = rest.range(of: until) { rest = rest[..<u.lowerBound] }
        return Double(rest.trimmingCharacters(in: .whitespaces))
    }

    /// The numbers of a `[a, b, …]` list after `prefix`.
    static func list(_ prefix: String, in text: String) -> [Double]? {
        guard let r = text.range(of: prefix), let close = text[r.upperBound...].firstIndex(of: "]") else { return nil }
        return text[r.upperBound..<close].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Every weather scene, both targets: no "not exported" for the weather; each kind that falls is
    /// a CAEmitterLayer whose cells have Welkin's numbers: lifetime, speed range, scale and its
    /// range, colour, sprite and its size and blur, the emitter's amount and prewarm; the fall's
    /// speed and direction are Welkin's fall plus its wind × the depth's push; and the birth rate per
    /// point of the birth line is Welkin's (the line is wider upwind, the rate with it).
    func testTheWeathersEmittersCarryWelkinsNumbers() throws {
        var checked = 0
        for name in Self.scenes {
            let scene = try Self.load(name)
            let weather = try XCTUnwrap(scene.weather)
            for target in CodeExport.Target.allCases {
                let output = CodeExport.generate(scene, target: target)
                XCTAssertFalse(output.warnings.contains { $0.path == "weather" && $0.message.hasPrefix("not exported") },
                               "\(name): \(output.warnings)")
                var kinds = 0
                for kind in PrecipitationKind.allCases {
                    guard let welkin = kind.emitter(in: scene) else { continue }
                    kinds += 1
                    let title = kind == .rain ? "Rain" : "Snow"
                    let wind = PrecipitationExport.fallWind(kind, weather)
                    var depths: [String] = []
                    for (c, cell) in welkin.cells.enumerated() {
                        // One CAEmitterLayer per depth, far to near.
                        let depth = "Weather\(title)" + Self.capitalised(SwiftLiteral.identifier(cell.name)!)
                        depths.append(depth)
                        let label = "\(name) \(target) \(kind) \(depth)"
                        let configure = try XCTUnwrap(Self.function("private func configure\(depth)Emitter(", in: output.source), label)
                        let layout = try XCTUnwrap(Self.function("private func layout\(depth)Emitter(", in: output.source), label)
                        XCTAssertEqual(Self.number("emitter.birthRate = ", in: configure), welkin.birthRate, label)
                        XCTAssertEqual(Self.number("emitter.timeOffset = ", in: configure), welkin.prewarm, label)
                        XCTAssertTrue(configure.contains("emitter.renderMode = .\(welkin.renderMode.rawValue)"), label)
                        let width = try XCTUnwrap(Self.number("emitter.emitterSize = CGSize(width: ", in: layout, until: " * bounds.width"), label)
                        let v = SwiftLiteral.identifier(cell.name)! + "Cell"
                        func value(_ property: String) -> Double? { Self.number("    \(v).\(property) = ", in: configure) }
                        XCTAssertEqual(value("lifetime"), cell.lifetime, "\(label) \(cell.name)")
                        XCTAssertEqual(value("lifetimeRange"), cell.lifetimeRange, "\(label) \(cell.name)")
                        XCTAssertEqual(value("velocityRange"), cell.velocityRange, "\(label) \(cell.name)")
                        XCTAssertEqual(value("emissionRange"), cell.emissionRange, "\(label) \(cell.name)")
                        XCTAssertEqual(value("scale"), cell.scale, "\(label) \(cell.name)")
                        XCTAssertEqual(value("scaleRange"), cell.scaleRange, "\(label) \(cell.name)")
                        XCTAssertEqual(value("alphaRange"), cell.alphaRange, "\(label) \(cell.name)")
                        XCTAssertEqual(value("spinRange"), cell.spinRange, "\(label) \(cell.name): clumps and crystals turn")
                        let color = "\(v).color = CGColor(srgbRed: \(cell.color.r), green: \(cell.color.g), blue: \(cell.color.b), alpha: \(cell.color.a))"
                        XCTAssertTrue(configure.contains(color), "\(label): \(color)")
                        // Welkin's fall straight down plus the wind × this depth's push.
                        let fall = SIMD2(cos(cell.emissionLongitude), sin(cell.emissionLongitude)) * cell.velocity + wind * kind.windPushes[c]
                        XCTAssertEqual(try XCTUnwrap(value("velocity")), (fall * fall).sum().squareRoot(), accuracy: 1e-9, "\(label) \(cell.name)")
                        XCTAssertEqual(try XCTUnwrap(Self.number("    \(v).emissionLongitude = welkinYDown * ", in: configure)),
                                       atan2(fall.y, fall.x), accuracy: 1e-12, "\(label) \(cell.name)")
                        // Particles per second per unit of the line's width: Welkin's.
                        XCTAssertEqual(try XCTUnwrap(value("birthRate")) / width, cell.birthRate / welkin.size.x,
                                       accuracy: 1e-9 * cell.birthRate / welkin.size.x, "\(label) \(cell.name)")
                        let sprite = "\(v).contents = welkinSpriteImage(.\(cell.sprite.rawValue), size: [\(cell.spriteSize)"
                        XCTAssertTrue(configure.contains(sprite), "\(label): \(sprite)")
                        if cell.sprite == .softDot { XCTAssertTrue(configure.contains("blur: \(cell.blur))"), label) }
                        checked += 1
                    }
                    // In the ZStack or the sublayers in Welkin's order, after every scene layer.
                    let uses = depths.map { d in output.source.range(of: "configure\(d)Emitter" + (target == .swiftUI ? "," : "(")) }
                    XCTAssertFalse(uses.contains(nil), "\(name) \(target): \(depths)")
                    let places = uses.compactMap { $0?.lowerBound }
                    XCTAssertEqual(places, places.sorted(), "\(name) \(target): the depths far to near")
                }
                XCTAssertGreaterThan(kinds, 0, name)
            }
        }
        // 5 scenes × 2 targets; rain falls in 3 cells, snow in 5 (its clumps and crystals).
        XCTAssertEqual(checked, 38)
    }

    static func capitalised(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }

    /// phone-snow, snowy-night and weather-tour, SwiftUI and Core Animation, type-check in Swift 6
    /// mode against the stubs for iOS (UIKit) and for macOS (AppKit), whole files each time
    /// (CodeExportTests checks every example for iOS and each distinct AppKit branch once).
    func testTheWeatherScenesTypeCheckForIOSAndMacOS() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-weather-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        for name in ["phone-snow.json", "snowy-night.json", "weather-tour.json"] {
            let scene = try Self.load(name)
            for target in CodeExport.Target.allCases {
                let file = directory.appendingPathComponent(name.replacingOccurrences(of: ".json", with: "") + "-\(target.rawValue).swift")
                try CodeExport.generate(scene, target: target).source.write(to: file, atomically: true, encoding: .utf8)
                files.append(file)
            }
        }
        let stubs = try SwiftCompiler.stubs()
        let runs = try SwiftCompiler.run([SwiftCompiler.typecheck(files, platform: stubs.ios, stubs: stubs),
                                          SwiftCompiler.typecheck(files, platform: stubs.mac, stubs: stubs)], in: directory)
        for (run, platform) in zip(runs, ["iOS", "macOS"]) {
            XCTAssertEqual(run.status, 0, "\(platform):\n" + run.output)
            XCTAssertFalse(run.output.contains("warning:"), run.output)
        }
    }

    /// The y of a CAMediaTimingFunction's cubic Bézier at x (bisection on the monotonic x(s)).
    static func bezier(_ p: [Double], at x: Double) -> Double {
        func cubic(_ a: Double, _ b: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * b + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if cubic(p[0], p[2], mid) < x { lo = mid } else { hi = mid }
        }
        return cubic(p[1], p[3], (lo + hi) / 2)
    }

    /// `rainIntensity.values`, `.keyTimes` (scene seconds over the duration) and the timing
    /// functions, read back from the code, against WeatherState at the keyframes (1e-9) and at 39
    /// times in each segment (1e-7 × the amount: the control points are Floats, 3.4e-8 at most). Returns the largest differences.
    static func checkFade(_ source: String, kind: PrecipitationKind, weather: Weather, seed: UInt64, amount: Double,
                          file: StaticString = #filePath, line: UInt = #line) throws -> (atKeys: Double, between: Double, keys: Int) {
        let name = kind == .rain ? "rainIntensity" : "snowIntensity"
        let values = try XCTUnwrap(list("\(name).values = [", in: source), file: file, line: line)
        let times = try XCTUnwrap(list("\(name).keyTimes = [", in: source), file: file, line: line)
        let duration = try XCTUnwrap(number("\(name).duration = ", in: source), file: file, line: line)
        XCTAssertEqual(times.first, 0, file: file, line: line)
        XCTAssertEqual(times.last, duration, file: file, line: line)
        XCTAssertEqual(values.count, times.count, file: file, line: line)
        XCTAssertEqual(zip(times, times.dropFirst()).filter { $0 > $1 }.count, 0, "keyTimes in order", file: file, line: line)
        XCTAssertTrue(source.contains("\(name).beginTime = emitter.timeOffset"), file: file, line: line)
        XCTAssertTrue(source.contains("\(name).fillMode = .both"), file: file, line: line)
        // The timing functions, in order.
        let block = try XCTUnwrap(source.range(of: "\(name).timingFunctions = [\n"), file: file, line: line)
        let curves: [[Double]?] = source[block.upperBound...].split(separator: "\n").prefix { !$0.contains("]") || $0.contains("CAMediaTimingFunction") }
            .map { line in
                guard let r = line.range(of: "controlPoints: ") else { return nil }
                return line[r.upperBound...].dropLast(2).split(separator: ",").map { Double(Float($0.trimmingCharacters(in: .whitespaces))!) }
            }
        XCTAssertEqual(curves.count, times.count - 1, file: file, line: line)
        func welkin(_ t: Double) -> Double { amount * kind.intensity(WeatherState(weather, time: t, seed: seed).parameters) }
        var atKeys = 0.0, between = 0.0
        for (k, t) in times.enumerated() {
            // A repeated time is a step: the first value is the one just before it.
            let expected = k + 1 < times.count && times[k + 1] == t ? welkin(t.nextDown) : welkin(t)
            atKeys = max(atKeys, abs(values[k] - expected))
        }
        for k in 0..<(times.count - 1) where times[k] < times[k + 1] {
            for i in 1..<40 {
                let f = Double(i) / 40
                let t = times[k] + (times[k + 1] - times[k]) * f
                let y = curves[k].map { bezier($0, at: f) } ?? f
                between = max(between, abs(values[k] + (values[k + 1] - values[k]) * y - welkin(t)))
            }
        }
        // After the last keyframe the last value holds, as the weather's last preset does.
        between = max(between, abs(values[values.count - 1] - welkin(duration + 100)))
        XCTAssertLessThanOrEqual(atKeys, 1e-9, file: file, line: line)
        XCTAssertLessThanOrEqual(between, 1e-7 * max(amount, 1), file: file, line: line)
        return (atKeys, between, times.count)
    }

    /// weather-tour.json's rain (clear → cloudy → rain → clear → cloudy → rain, fading over 2 s), in
    /// both targets: the birthRate keyframes are WeatherState's intensity.
    func testTheTourCrossFadesAreWelkinsIntensity() throws {
        let scene = try Self.load("weather-tour.json")
        let weather = try XCTUnwrap(scene.weather)
        for target in CodeExport.Target.allCases {
            let source = CodeExport.generate(scene, target: target).source
            let r = try Self.checkFade(source, kind: .rain, weather: weather, seed: scene.seed, amount: 1)
            XCTAssertEqual(r.keys, 7)
            print("weather-tour (\(target)): rain keyframes \(r.keys), largest difference from WeatherState at them \(r.atKeys), between them \(r.between)")
            XCTAssertFalse(source.contains("snowIntensity"))
            XCTAssertTrue(source.contains("CAMediaTimingFunction(controlPoints: 0.33333334, 0.0, 0.6666667, 1.0)"))
        }
        // Steady weather: no animation.
        XCTAssertFalse(CodeExport.generate(try Self.load("snowy-night.json"), target: .coreAnimation).source.contains("Intensity = CAKeyframeAnimation"))
    }

    /// Schedules the examples do not have: a fade cut short by the next change, one begun before
    /// time 0, two changes at the same time, changes without a fade, an amount other than 1.
    func testInterruptedAndInstantFadesAreWelkinsIntensity() throws {
        let cases: [Weather] = [
            Weather(preset: .clear, transition: 3, schedule: [(1, .snow), (2.5, .clear), (4, .storm), (4, .snow), (9, .cloudy)],
                    precipitation: PrecipitationSettings(rain: 0.5, snow: 2)),
            Weather(preset: .rain, transition: 4, schedule: [(-1, .clear), (2, .snow), (3, .rain)]),
            Weather(preset: .snow, transition: 0, schedule: [(2, .clear), (5, .rain), (7, .snow)]),
        ]
        var keys = 0, steady = 0
        for (i, weather) in cases.enumerated() {
            var scene = try Self.load("weather-tour.json")
            scene.weather = weather
            for target in CodeExport.Target.allCases {
                let output = CodeExport.generate(scene, target: target)
                for kind in PrecipitationKind.allCases where kind.emitter(in: scene) != nil {
                    let amount = kind == .rain ? weather.precipitation.rain : weather.precipitation.snow
                    let title = kind == .rain ? "Rain" : "Snow"
                    let samples = stride(from: -1.0, through: 20, by: 0.25).map { kind.intensity(WeatherState(weather, time: $0, seed: scene.seed).parameters) }
                    if Set(samples).count == 1 {
                        // The intensity never changes: a constant birth rate, or no emitter when it is 0.
                        let configure = Self.function("private func configureWeather\(title)Far\(kind == .rain ? "Drop" : "Flake")Emitter(", in: output.source)
                        if samples[0] == 0 {
                            XCTAssertNil(configure, "case \(i) \(kind)")
                        } else {
                            XCTAssertEqual(Self.number("emitter.birthRate = ", in: try XCTUnwrap(configure)), amount * samples[0])
                        }
                        steady += 1
                        continue
                    }
                    let r = try Self.checkFade(output.source, kind: kind, weather: weather, seed: scene.seed, amount: amount)
                    XCTAssertGreaterThan(r.keys, 2, "case \(i) \(kind)")
                    print("case \(i) (\(target)) \(kind): keyframes \(r.keys), largest difference at them \(r.atKeys), between them \(r.between)")
                    keys += r.keys
                }
            }
        }
        XCTAssertGreaterThan(keys, 20)
        XCTAssertEqual(steady, 2, "case 0's rain never falls (its storm lasts no time), in both targets")
    }

    /// The weather's warnings for snowy-night.json, word for word: approximations only.
    func testSnowyNightWeatherWarningsWordForWord() throws {
        let output = CodeExport.generate(try Self.load("snowy-night.json"), target: .swiftUI)
        XCTAssertEqual(output.warnings.filter { $0.path == "weather" }.map(\.description), [
            "weather (snow): approximated: the weather's wind [8.0, 0.0] pt/s × 1.6, 3.0, 6.5 (far to near) is a fixed tilt of each depth's fall, with the speed range along it (Welkin spreads the speeds straight down and adds the wind)",
            "weather (snow): approximated: Core Animation does not wrap a particle the wind carries past one side round to the other, as Welkin does: the birth line reaches 392.0 pt further upwind (the farthest a particle drifts in its life) and the birth rates are × 1.29, so the frame stays as full",
            "weather (snow): approximated: the flakes fall without swaying (Welkin sways them 4.0, 8.0, 14.0 pt at 0.25, 0.3, 0.35 Hz, far to near): Core Animation has no per-particle oscillation",
        ])
        XCTAssertTrue(CodeExportTests.comments(output.source).contains("the weather's snow, cells[4] \"near flake\" (cell 5 of 5, far to near; laid out for 1280 × 720 points) → a CAEmitterLayer"))
    }
}
