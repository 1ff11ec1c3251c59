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

/// Renders `frame` on the GPU (fused last layer unless `plain`) and the CPU, asserts they agree,
/// and returns both pictures.
@discardableResult
public func assertParity(_ frame: Frame, label: String, plain: Bool = false,
                         file: StaticString = #filePath, line: UInt = #line) throws -> (gpu: Image, cpu: Image) {
    let renderer = try TestGL.renderer()
    renderer.fusesLastLayer = !plain
    defer { renderer.fusesLastLayer = true }
    let gpu = try renderer.render(frame)
    let cpu = try ReferenceRenderer().render(frame)
    let difference = ImageDifference(gpu, cpu)
    print("parity \(label) t=\(frame.time)\(plain ? " plain" : ""): \(difference)")
    XCTAssertTrue(difference.passes, "\(label) at \(frame.time) s: \(difference)", file: file, line: line)
    if let directory = ProcessInfo.processInfo.environment["WELKIN_SAVE_RENDERS"] {
        try PNG.write(gpu, to: "\(directory)/\(label)-\(frame.time)-gpu.png")
        try PNG.write(cpu, to: "\(directory)/\(label)-\(frame.time)-cpu.png")
    }
    return (gpu, cpu)
}
