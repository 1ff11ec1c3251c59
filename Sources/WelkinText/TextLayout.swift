// Text layout: lines shaped by HarfBuzz, placed on whole pixels, glyph coverage from FreeType
// packed into one atlas that both renderers read.
//
// Placement rule (docs/text-and-masks.md): every position is kept in 26.6 fixed point (1/64 pixel)
// until the last step; each glyph's pen position (plus its HarfBuzz offset) is rounded to the
// nearest whole pixel, ties up — floor((v + 32) / 64) — and its coverage bitmap, rendered by FreeType
// at the origin, is placed there. Nothing is resampled, so a renderer that copies atlas texels to
// pixels draws exactly FreeType's coverage (Pillow's ImageFont places glyphs the same way).

import CFreeType
import CHarfBuzz
import Foundation

public enum HorizontalTextAlignment: String, Sendable, Hashable, CaseIterable {
    /// The position is the left end of each line.
    case leading
    case center
    /// The position is the right end of each line.
    case trailing
}

public enum VerticalTextAlignment: String, Sendable, Hashable, CaseIterable {
    /// The position is the top of the first line (its ascender).
    case top
    /// The position is halfway between the first line's ascender and the last line's descender.
    case center
    /// The position is on the first line's baseline.
    case baseline
    /// The position is the bottom of the last line (its descender).
    case bottom
}

/// How a text layer's string is set.
public struct TextStyle: Hashable, Sendable {
    public var font: FontRequest
    /// Pixels per em, horizontally and vertically (the font size times the frame's pixel scale).
    public var pixelsPerEm: SIMD2<Double>
    /// Extra pixels between one baseline and the next, beyond the font's line height.
    public var lineSpacing: Double
    public var horizontal: HorizontalTextAlignment
    public var vertical: VerticalTextAlignment

    public init(font: FontRequest, pixelsPerEm: SIMD2<Double>, lineSpacing: Double = 0,
                horizontal: HorizontalTextAlignment = .center, vertical: VerticalTextAlignment = .center) {
        self.font = font; self.pixelsPerEm = pixelsPerEm; self.lineSpacing = lineSpacing
        self.horizontal = horizontal; self.vertical = vertical
    }
}

/// One placed glyph.
public struct PlacedGlyph: Sendable, Equatable {
    /// The glyph's index in its font.
    public var glyph: UInt32
    /// The family of the font that draws it (the layer's, or a fallback).
    public var family: String
    /// The UTF-8 byte offset, within its line, of the character it comes from (HarfBuzz's cluster).
    public var cluster: Int
    /// Which line (0 first).
    public var line: Int
    /// Pen position plus offset in 26.6 pixels, y down.
    public var position: SIMD2<Int>
    /// `position` rounded to whole pixels: where the glyph's origin is drawn.
    public var pixel: SIMD2<Int>
}

/// A glyph's coverage rectangle on screen and where it is in the atlas. Pixels, y down.
public struct GlyphQuad: Sendable, Equatable {
    /// The top-left pixel it covers.
    public var origin: SIMD2<Int32>
    public var size: SIMD2<Int32>
    /// The top-left texel of its coverage in the atlas.
    public var atlasOrigin: SIMD2<Int32>

    public init(origin: SIMD2<Int32>, size: SIMD2<Int32>, atlasOrigin: SIMD2<Int32>) {
        self.origin = origin; self.size = size; self.atlasOrigin = atlasOrigin
    }
}

/// 8-bit glyph coverage (0 none … 255 full), row-major, row 0 at the top. Immutable.
public final class GlyphAtlas: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]
    /// Unique per atlas made in this process: a GPU texture cache keys on it.
    public let id: UInt64

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.pixels = pixels
        id = GlyphAtlas.nextID()
    }

    private static let counterLock = NSLock()
    nonisolated(unsafe) private static var counter: UInt64 = 0
    private static func nextID() -> UInt64 {
        counterLock.lock(); defer { counterLock.unlock() }
        counter += 1
        return counter
    }

    public static func == (a: GlyphAtlas, b: GlyphAtlas) -> Bool { a.id == b.id }

    /// The most texels on either side (within every GL 3.3 implementation's texture limit here).
    public static let maximumSide = 8192
    /// The atlas's width unless a glyph is wider.
    static let preferredWidth = 1024
}

/// A string laid out: its glyphs in drawing order, their quads and their atlas.
public struct TextLayout: Sendable {
    public var glyphs: [PlacedGlyph]
    /// One per glyph with coverage, in drawing order (line by line, left to right on screen).
    public var quads: [GlyphQuad]
    public var atlas: GlyphAtlas
    /// Characters drawn with a fallback font, and that font's family.
    public var fallbacks: [String: String]
    /// The box of the lines (each line's advance, from the first line's ascender to the last's
    /// descender), [x0, y0, x1, y1] in pixels, y down: SwiftUI's frame of the Text.
    public var bounds: SIMD4<Double> = .zero

    /// The largest pixels-per-em a layout takes (the coverage of one glyph stays well inside the atlas).
    public static let maximumPixelsPerEm = 2048.0
    /// Layouts kept for reuse (a frame resolves every text layer; the viewer does that 60 times a second).
    static let cacheLimit = 256

    private struct Key: Hashable { var text: String; var style: TextStyle; var origin: SIMD2<Double> }
    nonisolated(unsafe) private static var cache: [Key: TextLayout] = [:]   // under TextEngine.lock

    /// Lays out `text` (lines split at "\n") with `style`, aligned at `origin` (pixels, y down).
    /// The same arguments give the same layout (cached). Throws `FontError`.
    public static func make(_ text: String, style: TextStyle, origin: SIMD2<Double>) throws -> TextLayout {
        try TextEngine.locked {
            let key = Key(text: text, style: style, origin: origin)
            if let hit = cache[key] { return hit }
            let layout = try build(text, style: style, origin: origin)
            if cache.count >= cacheLimit { cache.removeAll() }
            cache[key] = layout
            return layout
        }
    }

    /// `make` without the cache (tests check that a layout is the same every time it is made).
    static func makeUncached(_ text: String, style: TextStyle, origin: SIMD2<Double>) throws -> TextLayout {
        try build(text, style: style, origin: origin)
    }

    /// 26.6 fixed point, rounding to nearest.
    static func fixed(_ v: Double) -> Int { Int((v * 64).rounded()) }

    /// Whole pixels from 26.6, to nearest with ties up: floor((v + 32) / 64).
    public static func pixel(_ v: Int) -> Int { (v + 32) >> 6 }

    private static func build(_ text: String, style: TextStyle, origin: SIMD2<Double>) throws -> TextLayout {
        let ppem = style.pixelsPerEm
        guard ppem.x > 0, ppem.y > 0, ppem.x <= maximumPixelsPerEm, ppem.y <= maximumPixelsPerEm else {
            throw FontError.tooLarge("text \(Int(max(ppem.x, ppem.y).rounded())) pixels per em is too large; at most \(Int(maximumPixelsPerEm)) (a smaller size or output)")
        }
        let fonts = TextEngine.fonts
        let primary = try fonts.face(style.font)
        let size = SIMD2(fixed(ppem.x), fixed(ppem.y))
        try primary.setSize(size)
        // Line metrics of the layer's font, 26.6 pixels, unrounded (the hinted size metrics are rounded).
        let yScale = primary.ft.pointee.size.pointee.metrics.y_scale
        let ascender = Int(FT_MulFix(FT_Long(primary.ft.pointee.ascender), yScale))
        let descender = -Int(FT_MulFix(FT_Long(primary.ft.pointee.descender), yScale))
        let advance = Int(FT_MulFix(FT_Long(primary.ft.pointee.height), yScale)) + fixed(style.lineSpacing)

        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var shaped: [[ShapedRunGlyph]] = []
        for line in lines {
            // Every face of the line at this size (fallbacks too) before HarfBuzz reads advances.
            let glyphs = try TextShaper.shape(line, primary: primary, weight: style.font.weight, fonts: fonts, size: size)
            shaped.append(glyphs)
        }
        let origin26 = SIMD2(fixed(origin.x), fixed(origin.y))
        let blockHeight = ascender + (lines.count - 1) * advance + descender
        let firstBaseline: Int
        switch style.vertical {
        case .top: firstBaseline = origin26.y + ascender
        case .baseline: firstBaseline = origin26.y
        case .center: firstBaseline = origin26.y - blockHeight / 2 + ascender
        case .bottom: firstBaseline = origin26.y - descender - (lines.count - 1) * advance
        }

        var placed: [PlacedGlyph] = []
        var bitmaps: [GlyphBitmap] = []
        var left = Int.max, right = Int.min
        var fallbacks: [String: String] = [:]
        for (index, glyphs) in shaped.enumerated() {
            let width = glyphs.reduce(0) { $0 + $1.advance.x }
            var pen = SIMD2(origin26.x, firstBaseline + index * advance)
            switch style.horizontal {
            case .leading: break
            case .center: pen.x -= width / 2
            case .trailing: pen.x -= width
            }
            left = min(left, pen.x); right = max(right, pen.x + width)
            for g in glyphs {
                let position = SIMD2(pen.x + g.offset.x, pen.y - g.offset.y)
                placed.append(PlacedGlyph(glyph: g.glyph, family: g.face.family, cluster: g.cluster, line: index,
                                          position: position, pixel: SIMD2(pixel(position.x), pixel(position.y))))
                try g.face.setSize(size)
                bitmaps.append(try GlyphRasterizer.bitmap(g.face, g.glyph, size: size))
                if g.face !== primary {
                    let line = Array(lines[index].utf8)
                    var end = g.cluster + 1
                    while end < line.count && (line[end] & 0xC0) == 0x80 { end += 1 }
                    if let c = String(bytes: line[g.cluster..<end], encoding: .utf8) { fallbacks[c] = g.face.family }
                }
                pen.x += g.advance.x
                pen.y -= g.advance.y
            }
        }
        let (atlas, atlasOrigins) = try pack(bitmaps)
        var quads: [GlyphQuad] = []
        for (i, g) in placed.enumerated() where bitmaps[i].width > 0 && bitmaps[i].height > 0 {
            let b = bitmaps[i]
            quads.append(GlyphQuad(origin: SIMD2(Int32(g.pixel.x + b.left), Int32(g.pixel.y - b.top)),
                                   size: SIMD2(Int32(b.width), Int32(b.height)), atlasOrigin: atlasOrigins[i]))
        }
        let top = firstBaseline - ascender, bottom = firstBaseline + (lines.count - 1) * advance + descender
        return TextLayout(glyphs: placed, quads: quads, atlas: atlas, fallbacks: fallbacks,
                          bounds: SIMD4(Double(left), Double(top), Double(right), Double(bottom)) / 64)
    }

    /// Shelf packing, each distinct bitmap once, in order of first use (so the atlas is the same
    /// on every run). Returns the atlas origin of each bitmap.
    static func pack(_ bitmaps: [GlyphBitmap]) throws -> (GlyphAtlas, [SIMD2<Int32>]) {
        let widest = bitmaps.map(\.width).max() ?? 0
        let width = max(GlyphAtlas.preferredWidth, widest)
        var origins: [SIMD2<Int32>] = []
        var placedAt: [ObjectIdentifier: SIMD2<Int32>] = [:]
        var x = 0, y = 0, shelf = 0
        var order: [(GlyphBitmap, SIMD2<Int32>)] = []
        for b in bitmaps {
            if let at = placedAt[ObjectIdentifier(b)] { origins.append(at); continue }
            guard b.width > 0 && b.height > 0 else { origins.append(.zero); continue }
            if x + b.width > width { x = 0; y += shelf; shelf = 0 }
            let at = SIMD2(Int32(x), Int32(y))
            placedAt[ObjectIdentifier(b)] = at
            origins.append(at)
            order.append((b, at))
            x += b.width
            shelf = max(shelf, b.height)
        }
        let height = max(1, y + shelf)
        guard width <= GlyphAtlas.maximumSide, height <= GlyphAtlas.maximumSide else {
            throw FontError.tooLarge("the text's glyphs need a \(width)×\(height) atlas; at most \(GlyphAtlas.maximumSide)×\(GlyphAtlas.maximumSide) (less text, a smaller size or output)")
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for (b, at) in order {
            for row in 0..<b.height {
                let to = (Int(at.y) + row) * width + Int(at.x)
                pixels.replaceSubrange(to..<(to + b.width), with: b.pixels[(row * b.width)..<((row + 1) * b.width)])
            }
        }
        return (GlyphAtlas(width: width, height: height, pixels: pixels), origins)
    }
}

/// One glyph's coverage as FreeType renders it at the origin.
final class GlyphBitmap: @unchecked Sendable {
    /// From the glyph's origin to the bitmap's left column, and up to its top row (FreeType's bitmap_left/top).
    let left: Int, top: Int
    let width: Int, height: Int
    let pixels: [UInt8]

    init(left: Int, top: Int, width: Int, height: Int, pixels: [UInt8]) {
        self.left = left; self.top = top; self.width = width; self.height = height; self.pixels = pixels
    }
}

/// Glyph coverage, rendered once per face, glyph and size.
enum GlyphRasterizer {
    private struct Key: Hashable { var face: Int; var glyph: UInt32; var size: SIMD2<Int> }
    nonisolated(unsafe) private static var cache: [Key: GlyphBitmap] = [:]   // under TextEngine.lock
    static let cacheLimit = 20_000

    /// Hinted outlines (FT_LOAD_DEFAULT: FreeType's light, vertical-only hinting for TrueType),
    /// never embedded bitmaps, rendered with 256 levels of coverage. The face's size must be `size`.
    static func bitmap(_ face: Face, _ glyph: UInt32, size: SIMD2<Int>) throws -> GlyphBitmap {
        let key = Key(face: face.id, glyph: glyph, size: size)
        if let hit = cache[key] { return hit }
        let ft = face.ft
        var error = FT_Load_Glyph(ft, glyph, welkin_ft_load_default() | welkin_ft_load_no_bitmap())
        if error == 0 { error = FT_Render_Glyph(ft.pointee.glyph, FT_RENDER_MODE_NORMAL) }
        guard error == 0 else {
            throw FontError.unreadableFile(path: face.path, reason: "glyph \(glyph): \(String(cString: welkin_ft_error_string(error)))")
        }
        let slot = ft.pointee.glyph.pointee
        let b = slot.bitmap
        let width = Int(b.width), height = Int(b.rows), pitch = Int(b.pitch)
        var pixels = [UInt8](repeating: 0, count: width * height)
        if let buffer = b.buffer, width > 0, height > 0 {
            // Rows start at the top for a positive pitch, at the bottom for a negative one.
            let first = pitch < 0 ? buffer + (height - 1) * -pitch : buffer
            for y in 0..<height {
                let row = first + y * pitch
                for x in 0..<width {
                    switch Int32(b.pixel_mode) {
                    case Int32(FT_PIXEL_MODE_MONO.rawValue):
                        pixels[y * width + x] = (row[x >> 3] >> (7 - UInt8(x & 7))) & 1 != 0 ? 255 : 0
                    case Int32(FT_PIXEL_MODE_BGRA.rawValue):
                        pixels[y * width + x] = row[4 * x + 3]
                    default:
                        pixels[y * width + x] = row[x]
                    }
                }
            }
        }
        let bitmap = GlyphBitmap(left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), width: width, height: height, pixels: pixels)
        if cache.count >= cacheLimit { cache.removeAll() }
        cache[key] = bitmap
        return bitmap
    }
}
