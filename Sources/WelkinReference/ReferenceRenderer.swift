// The CPU reference renderer: draws a Frame with the same maths as the shaders, in Swift.
//
// Rows are independent: each thread takes whole rows, composites every layer into a float row
// buffer (premultiplied, sRGB-encoded, source-over) and quantises once at the end. The result does
// not depend on the thread count.

import Dispatch
import Foundation
import WelkinCore

/// A layer the CPU reference cannot draw (a user's GLSL shader, say).
public struct ReferenceUnsupportedError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

public struct ReferenceRenderer: Sendable {
    /// Threads to use; nil means one per core.
    public var threads: Int?

    public init(threads: Int? = nil) { self.threads = threads }

    /// Throws when the frame holds a layer only the GPU can draw (a user's GLSL shader).
    public static func checkSupported(_ frame: Frame) throws {
        for layer in frame.layers {
            if case .shader(let s) = layer {
                throw ReferenceUnsupportedError(message: "layers[\(s.index)] is a user shader (\(s.layer.fragmentPath)); the CPU reference cannot run arbitrary GLSL. Render it with 'welkin render' and test it with 'welkin compare --against REF.png'.")
            }
        }
    }

    /// Renders `frame` to an RGBA8 image. A layer it cannot draw is an error (see `checkSupported`).
    public func render(_ frame: Frame) throws -> Image {
        try Self.checkSupported(frame)
        return try renderSupported(frame)
    }

    func renderSupported(_ frame: Frame) throws -> Image {
        let width = frame.pixelSize.x, height = frame.pixelSize.y
        // Particle layers: sprites bucketed by rows, images loaded, before any row is drawn.
        let particles = try frame.layers.map { layer -> PreparedParticles? in
            guard case .particles(let p) = layer else { return nil }
            return try PreparedParticles(p, width: width, height: height)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let threadCount = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        // More bands than threads balances uneven rows; contiguous bands keep memory local.
        let bandCount = threadCount == 1 ? 1 : min(height, threadCount * 8)
        // Layers that need a whole-frame pre-pass (mesh triangles → row spans), made before any row.
        let prepared = Self.prepareLayers(frame)
        // A layer that is opaque everywhere hides the background and every layer below it. When it
        // is the last layer (a full-frame opaque mesh), its colours are quantised as they are made.
        let hidden = Self.hiddenLayers(frame, prepared: prepared)
        let last = frame.layers.count - 1
        let fused = hidden == last ? prepared[last] : nil
        pixels.withUnsafeMutableBufferPointer { out in
            let base = out.baseAddress!
            let work = { (band: Int) in
                let y0 = band * height / bandCount, y1 = (band + 1) * height / bandCount
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                let biases = UnsafeMutablePointer<Float>.allocate(capacity: 8)
                defer { row.deallocate(); biases.deallocate() }
                for y in y0..<y1 {
                    // The dither thresholds of this row, columns x & 7.
                    for i in 0..<8 { biases[i] = Dither.bias(x: i, y: y, enabled: frame.dither) }
                    if let fused {
                        fused.drawRow(y: y, biases: biases, into: base + y * width * 4)
                        continue
                    }
                    drawRow(frame, y: y, into: row, prepared: prepared, particles: particles, from: hidden ?? 0)
                    Self.resolveRow(row, width: width, biases: biases, into: base + y * width * 4)
                }
            }
            if bandCount == 1 {
                work(0)
            } else {
                // concurrentPerform uses the global pool; cap parallelism by handing each worker a stride.
                DispatchQueue.concurrentPerform(iterations: threadCount) { worker in
                    var band = worker
                    while band < bandCount { work(band); band += threadCount }
                }
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// Composites every layer of `frame` into one row of premultiplied float colour.
    /// Layers below `from` (and the background) are skipped: layer `from` hides them (`hiddenLayers`).
    func drawRow(_ frame: Frame, y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, prepared: [Int: MeshRaster] = [:],
                 particles: [PreparedParticles?] = [], from: Int = 0) {
        let width = frame.pixelSize.x
        if from == 0 { row.update(repeating: frame.background, count: width) }
        for (index, layer) in frame.layers.enumerated() where index >= from {
            switch layer {
            case .gradient(let g): GradientRaster.draw(g, y: y, width: width, into: row)
            case .particles: particles[index]!.drawRow(y: y, into: row)
            case .shader: preconditionFailure("checked by render(_:)")
            case .mesh: prepared[index]!.drawRow(y: y, into: row)
            case .sky(let sky): SkyRaster.draw(sky, y: y, width: width, into: row)
            }
        }
    }

    /// Per-frame pre-passes, by layer index: sequential, so rows stay independent of the thread count.
    static func prepareLayers(_ frame: Frame) -> [Int: MeshRaster] {
        var out: [Int: MeshRaster] = [:]
        for (index, layer) in frame.layers.enumerated() {
            if case .mesh(let m) = layer { out[index] = MeshRaster(m, pixelSize: frame.pixelSize) }
        }
        return out
    }

    /// The last layer that covers every pixel with opaque colour (so nothing below it shows), if any.
    static func hiddenLayers(_ frame: Frame, prepared: [Int: MeshRaster]) -> Int? {
        frame.layers.indices.last { prepared[$0]?.hidesBelow ?? false }
    }

    /// Quantises one row to RGBA8 with the shared dither (`biases`: the row's thresholds for x & 7).
    static func resolveRow(_ row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, biases: UnsafePointer<Float>,
                           into out: UnsafeMutablePointer<UInt8>) {
        for x in 0..<width { store(row[x], bias: biases[x & 7], at: out + 4 * x) }
    }

    /// One premultiplied pixel → straight-alpha RGBA8 at `o`.
    @inline(__always) static func store(_ p: SIMD4<Float>, bias: Float, at o: UnsafeMutablePointer<UInt8>) {
        if p.w >= 1 {
            // Opaque (most pixels): no un-premultiply, and alpha quantises to 255 whatever the bias.
            o[0] = Dither.quantize(p.x, bias: bias)
            o[1] = Dither.quantize(p.y, bias: bias)
            o[2] = Dither.quantize(p.z, bias: bias)
            o[3] = 255
        } else {
            UnsafeMutableRawPointer(o).storeBytes(of: Dither.resolve(p, bias: bias), as: SIMD4<UInt8>.self)
        }
    }
}

/// Premultiplied source-over: src + dst × (1 − src.a).
@inline(__always) func sourceOver(_ src: SIMD4<Float>, _ dst: SIMD4<Float>) -> SIMD4<Float> {
    src + dst * (1 - src.w)
}
