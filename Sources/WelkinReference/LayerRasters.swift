// The layers of a frame, or of a group, made ready for drawing a row at a time: each layer's
// per-frame pre-pass (mesh triangles filed by rows, particles bucketed, a group's whole picture
// drawn offscreen), made sequentially before any row so rows stay independent of the thread count.

import Dispatch
import WelkinCore

/// A Frame value the CPU reference draws: each kind's raster file conforms its draw type
/// (`extension GradientDraw: CPURasterizable`). A draw type without it is an error, not a crash
/// (`ReferenceUnsupportedError`); KindRasterTests checks every kind in `LayerKinds.all`.
protocol CPURasterizable: LayerDraw {
    /// Throws `ReferenceUnsupportedError` when the reference cannot draw this layer at all (a
    /// user's GLSL shader). By default it can.
    func checkSupported() throws
    /// The layer's rows for one frame: any whole-frame pre-pass (mesh triangles filed by rows,
    /// particles bucketed, a group drawn offscreen) is made here, before any row.
    func raster(width: Int, height: Int, threads: Int) throws -> any LayerRowRaster
    /// Whether the layer's colour is the same along each row and/or each column (vertical or
    /// horizontal linear gradients): frames of such layers are drawn a few rows or columns and
    /// copied (`ReferenceRenderer.invariantAxis`). Neither by default.
    var constantAlong: (rows: Bool, columns: Bool) { get }
}

extension CPURasterizable {
    func checkSupported() throws {}
    var constantAlong: (rows: Bool, columns: Bool) { (false, false) }
}

/// One layer of one frame, ready to composite a row at a time.
protocol LayerRowRaster {
    /// Composites the layer over the first `width` pixels of row y (kinds with a pre-pass may draw
    /// the whole row).
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int)
    /// Whether the layer covers every pixel with opaque colour, hiding the background and every
    /// layer below it. False by default.
    var hidesBelow: Bool { get }
}

extension LayerRowRaster {
    var hidesBelow: Bool { false }
}

/// A layer that, when it hides everything below and is the frame's last, quantises its own
/// colours as it makes them (an opaque full-frame mesh).
protocol ResolvingRowRaster: LayerRowRaster {
    func drawRow(y: Int, biases: UnsafePointer<Float>, into bytes: UnsafeMutablePointer<UInt8>)
}

extension ReferenceUnsupportedError {
    /// A draw type that no raster file conforms to `CPURasterizable`.
    static func noRaster(_ layer: any LayerDraw) -> ReferenceUnsupportedError {
        ReferenceUnsupportedError(message: "the CPU reference has no raster for \(type(of: layer)) layers (conform it to CPURasterizable in its raster file)")
    }
}

final class LayerRasters: @unchecked Sendable {
    let layers: [any LayerDraw]
    /// Each layer's rows, by position in `layers`.
    let rasters: [any LayerRowRaster]

    init(_ layers: [any LayerDraw], width: Int, height: Int, threads: Int) throws {
        self.layers = layers
        rasters = try layers.map { layer in
            guard let layer = layer as? CPURasterizable else { throw ReferenceUnsupportedError.noRaster(layer) }
            return try layer.raster(width: width, height: height, threads: threads)
        }
    }

    /// Composites layers `from…` over the first `width` pixels of row y.
    func drawRow(y: Int, into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, from: Int = 0) {
        for index in rasters.indices where index >= from {
            rasters[index].drawRow(y: y, into: row, width: width)
        }
    }

    /// Runs `body` over the rows 0..<height in bands, on up to `threads` threads.
    static func forEachBand(height: Int, threads: Int, _ body: @escaping @Sendable (Range<Int>) -> Void) {
        let bandCount = threads == 1 ? 1 : min(height, threads * 8)
        guard bandCount > 1 else { body(0..<height); return }
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            var band = worker
            while band < bandCount {
                body((band * height / bandCount)..<((band + 1) * height / bandCount))
                band += threads
            }
        }
    }
}
