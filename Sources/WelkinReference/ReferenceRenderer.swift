// The CPU reference renderer: draws a Frame with the same maths as the shaders, in Swift.
//
// Rows are independent: each thread takes whole rows, composites every layer into a float row
// buffer (premultiplied, sRGB-encoded, source-over) and quantises once at the end. The result does
// not depend on the thread count.

import Dispatch
import Foundation
import WelkinCore
import WelkinImage

/// A layer the CPU reference cannot draw (a user's GLSL shader, say).
public struct ReferenceUnsupportedError: UserFacingError, Sendable {
    public var message: String
    public var description: String { message }
    public func inScene(_ file: String?) -> any UserFacingError { SceneFileError(sceneFile: file, message: message) }
}

public struct ReferenceRenderer: Sendable {
    /// Threads to use; nil means one per core.
    public var threads: Int?
    /// Whether frames constant along rows or columns take the copying fast path (tests turn it off
    /// to compare with the general path).
    var axisFastPath = true

    public init(threads: Int? = nil) { self.threads = threads }

    /// Throws when the frame holds a layer only the GPU can draw (a user's GLSL shader), or one no
    /// raster file draws.
    public static func checkSupported(_ frame: Frame) throws {
        for layer in frame.layers {
            guard let layer = layer as? CPURasterizable else { throw ReferenceUnsupportedError.noRaster(layer) }
            try layer.checkSupported()
        }
    }

    /// Renders `frame` to an RGBA8 image. A layer it cannot draw is an error (see `checkSupported`).
    public func render(_ frame: Frame) throws -> Image {
        try Self.checkSupported(frame)
        return try renderSupported(frame)
    }

    /// Renders `frame` into `image`, reusing its pixel storage when the size matches (a viewer, an
    /// export or a benchmark drawing frame after frame skips allocating and faulting in a new buffer).
    public func render(_ frame: Frame, into image: inout Image) throws {
        try Self.checkSupported(frame)
        let width = frame.pixelSize.x, height = frame.pixelSize.y
        if image.width != width || image.height != height { image = Image(width: width, height: height) }
        try image.pixels.withUnsafeMutableBufferPointer { try renderSupported(frame, into: $0) }
    }

    func renderSupported(_ frame: Frame) throws -> Image {
        var pixels = [UInt8](repeating: 0, count: frame.pixelSize.x * frame.pixelSize.y * 4)
        try pixels.withUnsafeMutableBufferPointer { try renderSupported(frame, into: $0) }
        return Image(width: frame.pixelSize.x, height: frame.pixelSize.y, pixels: pixels)
    }

    /// Draws `frame` into `out` (width × height × 4 bytes), every byte written.
    func renderSupported(_ frame: Frame, into out: UnsafeMutableBufferPointer<UInt8>) throws {
        let width = frame.pixelSize.x, height = frame.pixelSize.y
        // Frames that are copies of a few rows are memory-bound: one thread, no hand-off.
        let copying = axisFastPath && Self.invariantAxis(frame) != nil
        let threadCount = copying ? 1 : max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        // More bands than threads balances uneven rows; contiguous bands keep memory local.
        let bandCount = threadCount == 1 ? 1 : min(height, threadCount * 8)
        // Layers that need a whole-frame pre-pass (mesh triangles → row spans, particles bucketed and
        // their images loaded, groups drawn offscreen), made before any row.
        let prepared = try LayerRasters(frame.layers, width: width, height: height, threads: threadCount)
        // A layer that is opaque everywhere hides the background and every layer below it. When it
        // is the last layer (a full-frame opaque mesh), its colours are quantised as they are made.
        let hidden = Self.hiddenLayers(frame, prepared: prepared)
        let last = frame.layers.count - 1
        // (sRGB output only: the fused path quantises without the output transform.)
        let fused = hidden == last && frame.outputColorSpace == .srgb ? prepared.rasters[last] as? ResolvingRowRaster : nil
        // A frame whose colour depends on one axis only (vertical or horizontal linear gradients over
        // the background) has at most 8 distinct quantised pixels per row (the dither repeats every
        // 8 columns) or 8 distinct rows (every 8 rows): those are computed with the general code and
        // copied, so the bytes are the general path's (ReferenceRendererTests compares both).
        let axis = axisFastPath ? Self.invariantAxis(frame) : nil
        if axis == .column {
            Self.drawColumnConstantFrame(frame, prepared: prepared, into: out.baseAddress!)
            return
        }
        do {
            let base = out.baseAddress!
            // Bands write disjoint rows of `out` and read only shared, unchanging values: safe to run
            // concurrently, which the compiler cannot check through the raw pointers.
            nonisolated(unsafe) let work = { (band: Int) in
                let y0 = band * height / bandCount, y1 = (band + 1) * height / bandCount
                let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
                let biases = UnsafeMutablePointer<Float>.allocate(capacity: 8)
                defer { row.deallocate(); biases.deallocate() }
                for y in y0..<y1 {
                    // The dither thresholds of this row, columns x & 7.
                    for i in 0..<8 { biases[i] = Dither.bias(x: i, y: y, enabled: frame.dither) }
                    if axis == .row {
                        Self.drawConstantRow(frame, y: y, biases: biases, scratch: row, prepared: prepared, into: base + y * width * 4)
                        continue
                    }
                    if let fused {
                        fused.drawRow(y: y, biases: biases, into: base + y * width * 4)
                        continue
                    }
                    drawRow(frame, y: y, into: row, prepared: prepared, from: hidden ?? 0)
                    Self.resolveRow(row, width: width, biases: biases, space: frame.outputColorSpace, into: base + y * width * 4)
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
    }

    /// The axis along which every layer's colour is constant, if any: `.row` when each row is one
    /// colour (vertical linear gradients), `.column` when each column is (horizontal ones).
    enum Axis { case row, column }

    static func invariantAxis(_ frame: Frame) -> Axis? {
        var alongRows = true, alongColumns = true
        for layer in frame.layers {
            let constant = (layer as? CPURasterizable)?.constantAlong ?? (rows: false, columns: false)
            guard constant.rows || constant.columns else { return nil }
            if !constant.rows { alongRows = false }
            if !constant.columns { alongColumns = false }
        }
        return alongRows ? .row : alongColumns ? .column : nil
    }

    /// A row of one colour: its first (up to) 8 pixels drawn and quantised by the general code,
    /// then repeated (the dither's period is 8 columns).
    static func drawConstantRow(_ frame: Frame, y: Int, biases: UnsafePointer<Float>, scratch: UnsafeMutablePointer<SIMD4<Float>>,
                                prepared: LayerRasters,
                                into out: UnsafeMutablePointer<UInt8>) {
        let width = frame.pixelSize.x, period = min(8, width)
        ReferenceRenderer().drawRow(frame, y: y, into: scratch, prepared: prepared, width: period)
        resolveRow(scratch, width: period, biases: biases, space: frame.outputColorSpace, into: out)
        var done = period
        while done < width {
            let n = min(done, width - done)
            (out + 4 * done).update(from: out, count: 4 * n)
            done += n
        }
    }

    /// A frame whose columns are each one colour repeats every 8 rows (the dither's period): rows
    /// 0…7 are drawn and quantised by the general code, then copied down in doubling blocks (row y
    /// is row y mod 8 of each block), large copies that stream at the memory's speed.
    static func drawColumnConstantFrame(_ frame: Frame, prepared: LayerRasters, into base: UnsafeMutablePointer<UInt8>) {
        let width = frame.pixelSize.x, height = frame.pixelSize.y, rowBytes = width * 4
        let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        let biases = UnsafeMutablePointer<Float>.allocate(capacity: 8)
        defer { row.deallocate(); biases.deallocate() }
        for y in 0..<min(8, height) {
            for i in 0..<8 { biases[i] = Dither.bias(x: i, y: y, enabled: frame.dither) }
            ReferenceRenderer().drawRow(frame, y: y, into: row, prepared: prepared)
            resolveRow(row, width: width, biases: biases, space: frame.outputColorSpace, into: base + y * rowBytes)
        }
        var done = min(8, height)
        while done < height {
            let n = min(done, height - done)
            (base + done * rowBytes).update(from: base, count: n * rowBytes)
            done += n
        }
    }

    /// Composites every layer of `frame` into one row of premultiplied float colour (its first
    /// `width` pixels; default the whole row).
    /// Layers below `from` (and the background) are skipped: layer `from` hides them (`hiddenLayers`).
    /// `prepared` holds the layers' pre-passes; nil for frames of gradients and sky alone, which need none.
    func drawRow(_ frame: Frame, y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, prepared: LayerRasters? = nil,
                 from: Int = 0, width: Int? = nil) {
        let width = width ?? frame.pixelSize.x
        if from == 0 { row.update(repeating: frame.background, count: width) }
        let prepared = prepared ?? (try! LayerRasters(frame.layers, width: frame.pixelSize.x, height: frame.pixelSize.y, threads: 1))
        prepared.drawRow(y: y, into: row, width: width, from: from)
    }

    /// The last layer that covers every pixel with opaque colour (so nothing below it shows), if any.
    static func hiddenLayers(_ frame: Frame, prepared: LayerRasters) -> Int? {
        prepared.rasters.indices.last { prepared.rasters[$0].hidesBelow }
    }

    /// Quantises one row to RGBA8 with the shared dither (`biases`: the row's thresholds for x & 7),
    /// after the output transform into `space` (none for sRGB: the quantiser's clamp is its clip).
    static func resolveRow(_ row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, biases: UnsafePointer<Float>,
                           space: OutputColorSpace = .srgb, into out: UnsafeMutablePointer<UInt8>) {
        guard space == .srgb else {
            for x in 0..<width {
                UnsafeMutableRawPointer(out + 4 * x).storeBytes(of: Dither.resolve(row[x], bias: biases[x & 7], space: space), as: SIMD4<UInt8>.self)
            }
            return
        }
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
