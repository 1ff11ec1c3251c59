// A package's sky program (SkyPass.exportVariant with `package`: the night, moonlight, Milky Way and
// fog compiled in at every frame, each adding nothing where the frame has none; a palette sky's
// night likewise) and its clouds' march (the Earth's shadow, fog, shafts and bolts compiled in) draw
// what Welkin's own programs draw, by day and by night, in fog, on a phone, under a palette.

import Foundation
import XCTest
import WelkinCore
import WelkinGL
import WelkinImage
@testable import WelkinExport
import WelkinTestSupport

final class PackageProgramTests: XCTestCase {
    /// The default scene with its sky's sun for `date` over Paris (its weather cleared), or a file's scene.
    static func scene(_ file: String, date: Double? = nil) throws -> Scene {
        var scene = try MetalExportTests.scene(file)
        if let date {
            guard case .sky(var sky)? = scene.layers[0].content as? SkyContent else { throw SwiftCompiler.DriverError(description: "\(file)'s first layer is a sky") }
            sky.sun = .computed(date: Timestamp(unixSeconds: date, offsetSeconds: 3600), latitude: 48.85, longitude: 2.35, timeScale: 1)
            scene.layers[0].content = SkyContent.sky(sky)
            scene.changeWeather(to: .clear, at: 0)
        }
        return scene
    }

    func testAPackagesSkyProgramDrawsWhatWelkinsProgramsDraw() throws {
        let renderer = try TestGL.renderer()
        defer { renderer.exportVariants = false; renderer.packageVariants = false }
        // By day; a full Moon; a new Moon with the Milky Way; fog; a colour ground at dusk; a phone's frame.
        let cases: [(name: String, scene: Scene, time: Double)] = [
            ("default", try Self.scene(""), 0),
            ("full Moon", try Self.scene("", date: 1_736_805_600), 0),
            ("new Moon", try Self.scene("", date: 1_738_098_000), 0),
            ("fog", try Self.scene("fog.json"), 2),
            ("night-paris", try Self.scene("night-paris.json"), 1),
            ("twilight", try Self.scene("physical-twilight.json"), 3),
            ("cloudy-phone", try Self.scene("weather/cloudy-phone.json"), 1),
            // Palette skies: a dated night (its stars and Moon), a sunset without one.
            ("snowy-night", try Self.scene("snowy-night.json"), 1),
            ("sunset-clouds", try Self.scene("sunset-clouds.json"), 1),
        ]
        for (name, scene, time) in cases {
            var frame = Frame(scene: scene, time: time)
            frame.pixelSize = SIMD2(frame.pixelSize.x / 2, frame.pixelSize.y / 2)
            renderer.exportVariants = false; renderer.packageVariants = false
            let own = try renderer.render(frame)
            renderer.exportVariants = true
            let export = try renderer.render(frame)
            renderer.packageVariants = true
            let package = try renderer.render(frame)
            if let directory = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
                try PNG.write(package, to: "\(directory)/package-\(name.replacingOccurrences(of: " ", with: "-")).png")
            }
            // The package's program adds exactly nothing to the export program's picture…
            let same = Self.difference(export, package)
            XCTAssertGreaterThanOrEqual(same.within(0), 0.999, "\(name): the package's program against the export's (largest \(same.largest))")
            XCTAssertLessThanOrEqual(same.largest, 1, name)
            // …which is Welkin's own, but for reading the tables' four texels itself (no filtering unit).
            let near = Self.difference(own, package)
            XCTAssertGreaterThanOrEqual(near.within(2), 0.99, "\(name): the package's program against Welkin's (largest \(near.largest))")
            print("PackageProgramTests: \(name): package vs export \(same.largest) at most (\(same.within(0) * 100) % equal); vs Welkin's \(near.largest) at most (\(near.within(2) * 100) % within 2)")
        }
    }

    /// Per pixel, the largest channel difference (0…255): the share within each bound, and the largest.
    static func difference(_ a: Image, _ b: Image) -> (within: (Int) -> Double, largest: Int) {
        var counts = [Int](repeating: 0, count: 256)
        for i in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: 4) {
            var d = 0
            for c in 0..<4 { d = max(d, abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))) }
            counts[d] += 1
        }
        let total = Double(max(a.pixels.count / 4, 1))
        let largest = counts.lastIndex { $0 > 0 } ?? 0
        return ({ bound in Double(counts[0...min(bound, 255)].reduce(0, +)) / total }, largest)
    }
}
