// GPU-vs-CPU parity, the one check every GL parity test makes: GLRenderer and ReferenceRenderer
// draw the same Frame and the pictures must agree (issue 3's tolerance: per-channel difference ≤ 2
// for all but at most 0.05 % of pixels). Set WELKIN_SAVE_RENDERS=DIR to keep both pictures as PNG.

import Foundation
import XCTest
import WelkinCore
import WelkinGL
import WelkinImage
import WelkinReference

/// How two images differ.
public struct ImageDifference: CustomStringConvertible {
    public var maxDifference = 0
    public var pixelsOverThreshold = 0
    public var pixelsDiffering = 0
    public var pixelCount = 0
    public var firstWorst: (x: Int, y: Int, gpu: SIMD4<UInt8>, cpu: SIMD4<UInt8>)?

    public init(_ a: Image, _ b: Image, threshold: Int = 2) {
        precondition(a.width == b.width && a.height == b.height)
        pixelCount = a.width * a.height
        for i in 0..<pixelCount {
            var d = 0
            for c in 0..<4 { d = max(d, abs(Int(a.pixels[4 * i + c]) - Int(b.pixels[4 * i + c]))) }
            if d > 0 { pixelsDiffering += 1 }
            if d > threshold { pixelsOverThreshold += 1 }
            if d > maxDifference {
                maxDifference = d
                firstWorst = (i % a.width, i / a.width, a[i % a.width, i / a.width], b[i % a.width, i / a.width])
            }
        }
    }

    public var percentOverThreshold: Double { 100 * Double(pixelsOverThreshold) / Double(pixelCount) }
    public var passes: Bool { percentOverThreshold <= 0.05 }

    public var description: String {
        var s = "max \(maxDifference), \(pixelsDiffering)/\(pixelCount) pixels differ, \(pixelsOverThreshold) over 2"
        if let w = firstWorst { s += " (worst at \(w.x),\(w.y): gpu \(w.gpu) cpu \(w.cpu))" }
        return s
    }
}

/// Renders `frame` on the GPU (fused last layer unless `plain`; specialised programs unless
/// `specializes` is false) and the CPU (or takes `cpu`, already rendered), asserts they agree at the
/// size the frame asks for, and returns both pictures.
@discardableResult
public func assertParity(_ frame: Frame, label: String, plain: Bool = false, specializes: Bool = true, cpu given: Image? = nil,
                         file: StaticString = #filePath, line: UInt = #line) throws -> (gpu: Image, cpu: Image) {
    let renderer = try TestGL.renderer()
    renderer.fusesLastLayer = !plain
    renderer.specializesPrograms = specializes
    defer { renderer.fusesLastLayer = true; renderer.specializesPrograms = true }
    let gpu = try renderer.render(frame)
    let cpu = try given ?? ReferenceRenderer().render(frame)
    XCTAssertEqual([gpu.width, gpu.height], [frame.pixelSize.x, frame.pixelSize.y], label, file: file, line: line)
    guard gpu.width == cpu.width, gpu.height == cpu.height else {
        XCTFail("\(label): the GPU drew \(gpu.width)×\(gpu.height), the CPU \(cpu.width)×\(cpu.height)", file: file, line: line)
        return (gpu, cpu)
    }
    let difference = ImageDifference(gpu, cpu)
    print("parity \(label) t=\(frame.time)\(plain ? " plain" : ""): \(difference)")
    XCTAssertTrue(difference.passes, "\(label) at \(frame.time) s: \(difference)", file: file, line: line)
    if let directory = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
        let base = "\(directory)/\(label)-\(frame.time)\(plain ? "-plain" : "")".replacingOccurrences(of: " ", with: "-")
        try PNG.write(gpu, to: base + "-gpu.png")
        try PNG.write(cpu, to: base + "-cpu.png")
    }
    return (gpu, cpu)
}

/// Renders `frame` on the GPU with the group passes scissored to their boxes and without, and
/// asserts the pictures are the same to the bit (the scissor only skips pixels that cannot change).
public func assertScissorsChangeNothing(_ frame: Frame, label: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let renderer = try TestGL.renderer()
    defer { renderer.scissorsGroups = true }
    renderer.scissorsGroups = true
    let scissored = try renderer.render(frame)
    renderer.scissorsGroups = false
    let whole = try renderer.render(frame)
    XCTAssertEqual(ImageDifference(scissored, whole).maxDifference, 0, "\(label) at \(frame.time) s", file: file, line: line)
}
