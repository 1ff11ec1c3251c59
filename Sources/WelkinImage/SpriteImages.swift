// Sprite and texture images: PNGs as premultiplied float texels, read once and shared by both
// renderers, with a cache the viewer invalidates when a file changes.

import Foundation
import WelkinCore

/// A sprite PNG as premultiplied sRGB-encoded float texels: what the GPU's texture holds too.
public struct SpriteImage: Sendable {
    public var width: Int
    public var height: Int
    /// Row 0 at the top.
    public var texels: [SIMD4<Float>]

    public init(_ image: Image) {
        width = image.width; height = image.height
        texels = (0..<(image.width * image.height)).map { i in
            let p = image.pixels
            let a = Float(p[4 * i + 3]) / 255
            return SIMD4(Float(p[4 * i]) / 255 * a, Float(p[4 * i + 1]) / 255 * a, Float(p[4 * i + 2]) / 255 * a, a)
        }
    }

    /// Bilinear sample at local point q of a sprite of `size` pixels, edges clamped; 0 outside.
    /// Mirrors sampleImage in Shaders/sprite.glsl.
    @inline(__always) public func sample(_ q: SIMD2<Float>, size: SIMD2<Float>) -> SIMD4<Float> {
        // Written as "not inside" so a NaN point samples nothing (and never reaches Int(_:)).
        if !(abs(q.x) < size.x * 0.5 && abs(q.y) < size.y * 0.5) { return .zero }
        let u = (q.x / size.x + 0.5) * Float(width) - 0.5
        let v = (q.y / size.y + 0.5) * Float(height) - 0.5
        let x0f = u.rounded(.down), y0f = v.rounded(.down)
        let fx = u - x0f, fy = v - y0f
        let x0 = min(max(Int(x0f), 0), width - 1), x1 = min(max(Int(x0f) + 1, 0), width - 1)
        let y0 = min(max(Int(y0f), 0), height - 1), y1 = min(max(Int(y0f) + 1, 0), height - 1)
        let top = texels[y0 * width + x0] * (1 - fx) + texels[y0 * width + x1] * fx
        let bottom = texels[y1 * width + x0] * (1 - fx) + texels[y1 * width + x1] * fx
        return top * (1 - fy) + bottom * fy
    }
}

/// Sprite PNGs (through libpng), read on first use and kept, shared by both renderers. Kept by
/// path, so an edited file shows only after `reload` (the viewer's file watcher) or `removeAll`
/// (its R key); GLRenderer's textures of them follow the same calls.
public enum SpriteImages {
    nonisolated(unsafe) private static var loaded: [String: SpriteImage] = [:]
    private static let lock = NSLock()

    public static func load(_ path: String) throws -> SpriteImage {
        lock.lock(); defer { lock.unlock() }
        if let image = loaded[path] { return image }
        let image = try read(path)
        loaded[path] = image
        return image
    }

    /// Reads `path` again and keeps the new image; when the file does not read (an editor caught
    /// mid-save, a broken export), the last good image stays and the error is thrown.
    @discardableResult
    public static func reload(_ path: String) throws -> SpriteImage {
        let image = try read(path)
        lock.lock(); defer { lock.unlock() }
        loaded[path] = image
        return image
    }

    /// Forgets every image: each is read again when next drawn.
    public static func removeAll() {
        lock.lock(); defer { lock.unlock() }
        loaded.removeAll()
    }

    /// The paths of the images read so far.
    public static var paths: [String] {
        lock.lock(); defer { lock.unlock() }
        return loaded.keys.sorted()
    }

    private static func read(_ path: String) throws -> SpriteImage {
        let image = SpriteImage(try PNG.read(path: path))
        guard image.width <= EmitterLayer.maximumImageDimension, image.height <= EmitterLayer.maximumImageDimension else {
            throw ImageFileError(path: path, message: "a sprite image may be at most \(EmitterLayer.maximumImageDimension)×\(EmitterLayer.maximumImageDimension) pixels")
        }
        return image
    }
}
