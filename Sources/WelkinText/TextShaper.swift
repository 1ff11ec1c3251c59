// Shaping one line: fonts per character (fallback), runs by direction (a small bidi), HarfBuzz.
//
// The bidi is the Unicode algorithm's core without explicit embeddings: strong letters (by script),
// European digits, neutrals resolved from their neighbours, levels 0…2, runs reordered by rule L2.
// Enough for a line of Latin, Chinese, Arabic and Hebrew with numbers; not for embedding controls.

import CHarfBuzz
import Foundation

/// A glyph as HarfBuzz shaped it, before placement.
struct ShapedRunGlyph {
    var face: Face
    var glyph: UInt32
    /// The UTF-8 byte offset in the line of the character this glyph comes from.
    var cluster: Int
    /// 26.6 pixels; y up, as HarfBuzz gives them.
    var advance: SIMD2<Int>
    var offset: SIMD2<Int>
}

enum TextShaper {
    enum BidiClass { case left, right, number, neutral }

    /// The bidi class of a character, from its first code point with a script of its own.
    static func bidiClass(_ c: Character) -> BidiClass {
        if c.unicodeScalars.first?.properties.numericType == .decimal { return .number }
        let funcs = hb_unicode_funcs_get_default()
        for s in c.unicodeScalars {
            let script = hb_unicode_script(funcs, s.value)
            if script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN { continue }
            return hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL ? .right : .left
        }
        return .neutral
    }

    /// Embedding levels (0 left-to-right, 1 right-to-left, 2 left-to-right inside right-to-left) per character.
    static func levels(_ classes: [BidiClass]) -> [Int] {
        let paragraphRTL = classes.first { $0 == .left || $0 == .right } == .right
        var resolved = classes
        // W7: a number after a left-to-right letter (or at the start of a left-to-right line) is a letter.
        var lastStrong: BidiClass = paragraphRTL ? .right : .left
        for i in resolved.indices {
            switch resolved[i] {
            case .left, .right: lastStrong = resolved[i]
            case .number where lastStrong == .left: resolved[i] = .left
            default: break
            }
        }
        // N1, N2: neutrals between two of one direction (numbers count as right-to-left) take it,
        // others the paragraph's.
        func direction(_ c: BidiClass) -> BidiClass? { c == .neutral ? nil : (c == .left ? .left : .right) }
        let paragraph: BidiClass = paragraphRTL ? .right : .left
        var i = 0
        while i < resolved.count {
            guard resolved[i] == .neutral else { i += 1; continue }
            var j = i
            while j < resolved.count && resolved[j] == .neutral { j += 1 }
            let before = i > 0 ? direction(resolved[i - 1])! : paragraph
            let after = j < resolved.count ? direction(resolved[j])! : paragraph
            for k in i..<j { resolved[k] = before == after ? before : paragraph }
            i = j
        }
        // I1, I2.
        return resolved.map { c in
            switch (paragraphRTL, c) {
            case (false, .left): return 0
            case (false, .right): return 1
            case (false, _): return 2   // numbers after right-to-left letters
            case (true, .right): return 1
            case (true, _): return 2
            }
        }
    }

    struct Run {
        var range: Range<Int>   // UTF-8 byte offsets in the line
        var level: Int
        var face: Face
    }

    /// The line shaped, in visual order (left to right on screen).
    /// Every face is set to `size` (26.6 pixels per em) before HarfBuzz reads its advances.
    static func shape(_ line: String, primary: Face, weight: Int, fonts: FontLibrary, size: SIMD2<Int>) throws -> [ShapedRunGlyph] {
        let characters = Array(line)
        guard !characters.isEmpty else { return [] }
        var faces: [Face] = []
        faces.reserveCapacity(characters.count)
        for c in characters {
            if primary.has(c) || c.unicodeScalars.allSatisfy({ $0.properties.isDefaultIgnorableCodePoint }) {
                faces.append(primary)
            } else if c.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .spaceSeparator }) {
                faces.append(primary)   // an odd space the font lacks: shaped as its missing glyph, no coverage
            } else {
                guard let f = fonts.fallback(for: c, weight: weight) else { throw FontError.missingCharacter(c, font: primary.family) }
                faces.append(f)
            }
        }
        for face in faces where face !== primary { try face.setSize(size) }
        try primary.setSize(size)
        let levels = levels(characters.map(bidiClass))
        // Runs of one level and one face, in logical order.
        var runs: [Run] = []
        var offset = 0
        for (i, c) in characters.enumerated() {
            let length = c.utf8.count
            if let last = runs.last, last.level == levels[i], last.face === faces[i] {
                runs[runs.count - 1].range = last.range.lowerBound..<(offset + length)
            } else {
                runs.append(Run(range: offset..<(offset + length), level: levels[i], face: faces[i]))
            }
            offset += length
        }
        // L2: from the highest level down to the lowest odd one, reverse every stretch at that level or above.
        let highest = runs.map(\.level).max() ?? 0
        let lowestOdd = runs.map(\.level).filter { $0 % 2 == 1 }.min() ?? (highest + 1)
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < runs.count {
                guard runs[i].level >= level else { i += 1; continue }
                var j = i
                while j < runs.count && runs[j].level >= level { j += 1 }
                runs[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        var out: [ShapedRunGlyph] = []
        let utf8 = Array(line.utf8)
        for run in runs { out += shapeRun(utf8, run) }
        return out
    }

    /// One run through HarfBuzz, with the whole line as context (Arabic joins across font changes).
    static func shapeRun(_ utf8: [UInt8], _ run: Run) -> [ShapedRunGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                hb_buffer_add_utf8(buffer, $0.baseAddress, Int32(utf8.count), UInt32(run.range.lowerBound), Int32(run.range.count))
            }
        }
        hb_buffer_set_direction(buffer, run.level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_language(buffer, hb_language_from_string(FontLibrary.language, -1))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(run.face.hb, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        return (0..<Int(count)).map { i in
            let p = positions[i]
            return ShapedRunGlyph(face: run.face, glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                                  advance: SIMD2(Int(p.x_advance), Int(p.y_advance)),
                                  offset: SIMD2(Int(p.x_offset), Int(p.y_offset)))
        }
    }
}
