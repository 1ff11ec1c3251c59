// Fonts: a file or a family name (through fontconfig) to a loaded FreeType face with its HarfBuzz
// font, and the fallback rule for characters a face lacks.
//
// FreeType's library and faces are not thread-safe, so every use goes through `TextEngine.lock`
// (layouts are cached, so the lock is held rarely). Faces stay loaded for the life of the process.

import CFontconfig
import CFreeType
import CHarfBuzz
import Foundation

/// Which font a text layer asks for.
public struct FontRequest: Hashable, Sendable {
    public enum Source: Hashable, Sendable {
        /// A font file (absolute path); face `index` of a collection (.ttc).
        case file(path: String, index: Int)
        /// An installed family, found by fontconfig.
        case family(String)
    }
    public var source: Source
    /// OpenType weight, 100 (thin) … 900 (black): picks the family's nearest face. A file is one face.
    public var weight: Int

    public init(_ source: Source, weight: Int = 400) { self.source = source; self.weight = weight }
}

/// Why a font or a character cannot be drawn. WelkinCore turns these into scene errors.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not exist.
    case noSuchFile(path: String)
    /// FreeType cannot open the file (its sentence).
    case unreadableFile(path: String, reason: String)
    /// No installed family has this name; `installed` lists the families there are.
    case unknownFamily(String, installed: [String])
    /// Neither the font nor any installed font has this character.
    case missingCharacter(Character, font: String)
    /// The text cannot be drawn at this size (a limit, in a sentence).
    case tooLarge(String)

    public var description: String {
        switch self {
        case .noSuchFile(let path): return "no such font file '\(path)'"
        case .unreadableFile(let path, let reason): return "cannot read the font file '\(path)': \(reason)"
        case .unknownFamily(let name, _): return "no installed font family '\(name)'"
        case .missingCharacter(let c, let font):
            return "no installed font has \(FontError.describe(c)); \(font) lacks it and so does every fallback"
        case .tooLarge(let sentence): return sentence
        }
    }

    /// `'天' (U+5929)`: the character and its code points.
    public static func describe(_ c: Character) -> String {
        let codes = c.unicodeScalars.map { "U+" + String(format: "%04X", $0.value) }.joined(separator: " ")
        let printable = c.unicodeScalars.allSatisfy { !$0.properties.generalCategory.isControlOrFormat }
        return printable ? "'\(c)' (\(codes))" : codes
    }
}

extension Unicode.GeneralCategory {
    var isControlOrFormat: Bool { self == .control || self == .format }
}

/// One loaded face: a FreeType face and the HarfBuzz font over it.
final class Face: @unchecked Sendable {
    /// Unique per process, for caches.
    let id: Int
    let path: String
    let index: Int
    /// The family name the face reports.
    let family: String
    let ft: FT_Face
    let hb: OpaquePointer
    /// The size last set (26.6 pixels per em, x and y), so it is set only when it changes.
    private var size: SIMD2<Int> = .zero

    init(id: Int, path: String, index: Int, ft: FT_Face) {
        self.id = id; self.path = path; self.index = index; self.ft = ft
        family = ft.pointee.family_name.map { String(cString: $0) } ?? (path as NSString).lastPathComponent
        hb = hb_ft_font_create_referenced(ft)
        // Unhinted advances (HarfBuzz positions), hinted coverage (GlyphRasterizer): what Pillow's
        // raqm layout does, so the tests can compare with it glyph for glyph.
        hb_ft_font_set_load_flags(hb, welkin_ft_load_default() | welkin_ft_load_no_hinting())
    }

    /// Sets the size in 26.6 pixels per em (x, y); HarfBuzz is told when it changes.
    func setSize(_ ppem: SIMD2<Int>) throws {
        guard ppem != size else { return }
        let error = FT_Set_Char_Size(ft, FT_F26Dot6(ppem.x), FT_F26Dot6(ppem.y), 72, 72)
        guard error == 0 else {
            throw FontError.tooLarge("FreeType cannot set \(family) to \(Double(ppem.y) / 64) pixels: \(String(cString: welkin_ft_error_string(error)))")
        }
        hb_ft_font_changed(hb)
        size = ppem
    }

    func has(_ scalar: Unicode.Scalar) -> Bool { FT_Get_Char_Index(ft, FT_ULong(scalar.value)) != 0 }

    /// Whether every code point of `c` has a glyph (joiners and variation selectors excepted:
    /// shaping drops them).
    func has(_ c: Character) -> Bool {
        c.unicodeScalars.allSatisfy { has($0) || $0.properties.isDefaultIgnorableCodePoint || $0.properties.isVariationSelector }
    }
}

/// Fonts by request, loaded once.
final class FontLibrary: @unchecked Sendable {
    private var library: FT_Library?
    private var faces: [String: Face] = [:]        // "path#index"
    private var requests: [FontRequest: Face] = [:]
    private var fallbacks: [String: Face?] = [:]   // "character#weight"
    private var families: [String]?
    private var fontconfigReady = false

    /// Families tried, in order, for a character the layer's font lacks, before fontconfig's own list:
    /// the fonts `make deps` installs, so the usual fallbacks do not depend on what else is installed.
    static let preferredFallbacks = ["DejaVu Sans", "WenQuanYi Micro Hei"]

    /// The language every font match and every shaping run uses, so neither follows the machine's locale.
    static let language = "en"

    init() {}

    private func ftLibrary() throws -> FT_Library {
        if let library { return library }
        var made: FT_Library?
        let error = FT_Init_FreeType(&made)
        guard error == 0, let made else { throw FontError.unreadableFile(path: "", reason: "FreeType did not start") }
        library = made
        return made
    }

    /// The face of a file (cached).
    func face(path: String, index: Int) throws -> Face {
        let key = "\(path)#\(index)"
        if let f = faces[key] { return f }
        // FreeType opens the path itself: a FIFO would block it, a device feed it without end.
        var info = stat()
        guard stat(path, &info) == 0 else { throw FontError.noSuchFile(path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FontError.unreadableFile(path: path, reason: "it is not a regular file (\(info.st_mode & S_IFMT == S_IFIFO ? "a FIFO" : info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a special file"))")
        }
        var ft: FT_Face?
        let error = FT_New_Face(try ftLibrary(), path, FT_Long(index), &ft)
        guard error == 0, let ft else {
            throw FontError.unreadableFile(path: path, reason: String(cString: welkin_ft_error_string(error)))
        }
        guard ft.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0 else {
            FT_Done_Face(ft)
            throw FontError.unreadableFile(path: path, reason: "it holds bitmaps only; Welkin draws outline fonts (TrueType, OpenType)")
        }
        let f = Face(id: faces.count + 1, path: path, index: index, ft: ft)
        faces[key] = f
        return f
    }

    /// The face a request names (cached).
    func face(_ request: FontRequest) throws -> Face {
        if let f = requests[request] { return f }
        let f: Face
        switch request.source {
        case .file(let path, let index): f = try face(path: path, index: index)
        case .family(let name):
            guard let (path, index) = match(family: name, weight: request.weight) else {
                throw FontError.unknownFamily(name, installed: installedFamilies())
            }
            f = try face(path: path, index: index)
        }
        requests[request] = f
        return f
    }

    private func startFontconfig() {
        if !fontconfigReady { _ = FcInit(); fontconfigReady = true }
    }

    /// A pattern with the fixed language, weight and upright slant; `body` adds the rest.
    private func withPattern<T>(weight: Int, _ body: (OpaquePointer) -> T) -> T {
        startFontconfig()
        let pattern = FcPatternCreate()!
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight)))
        _ = FcPatternAddInteger(pattern, FC_SLANT, Int32(FC_SLANT_ROMAN))
        Self.addString(pattern, FC_LANG, Self.language)
        return body(pattern)
    }

    static func addString(_ pattern: OpaquePointer, _ object: String, _ value: String) {
        value.withCString { c in
            c.withMemoryRebound(to: FcChar8.self, capacity: value.utf8.count + 1) { _ = FcPatternAddString(pattern, object, $0) }
        }
    }

    static func string(_ pattern: OpaquePointer, _ object: String, _ n: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }

    /// File and face index of the installed face of `family` nearest `weight`; nil when no
    /// installed family has that name (fontconfig always returns some font: its family is checked).
    private func match(family: String, weight: Int) -> (String, Int)? {
        withPattern(weight: weight) { pattern in
            Self.addString(pattern, FC_FAMILY, family)
            _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultMatch
            guard let font = FcFontMatch(nil, pattern, &result) else { return nil }
            defer { FcPatternDestroy(font) }
            var names: [String] = []
            var n: Int32 = 0
            while let name = Self.string(font, FC_FAMILY, n) { names.append(name); n += 1 }
            guard names.contains(where: { $0.caseInsensitiveCompare(family) == .orderedSame }),
                  let file = Self.string(font, FC_FILE) else { return nil }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
            return (file, Int(index))
        }
    }

    /// Every installed family name (first name of each), sorted.
    func installedFamilies() -> [String] {
        if let families { return families }
        startFontconfig()
        let pattern = FcPatternCreate()!
        defer { FcPatternDestroy(pattern) }
        let objects = FcObjectSetCreate()!
        defer { FcObjectSetDestroy(objects) }
        _ = FcObjectSetAdd(objects, FC_FAMILY)
        var names = Set<String>()
        if let set = FcFontList(nil, pattern, objects) {
            defer { FcFontSetDestroy(set) }
            for i in 0..<Int(set.pointee.nfont) {
                if let p = set.pointee.fonts[i], let name = Self.string(p, FC_FAMILY) { names.insert(name) }
            }
        }
        families = names.sorted()
        return families!
    }

    /// The face that draws `c` when the layer's font lacks it: the preferred fallbacks in order,
    /// then fontconfig's fonts sorted for the character; nil when no installed font has it.
    func fallback(for c: Character, weight: Int) -> Face? {
        let key = "\(c)#\(weight)"
        if let f = fallbacks[key] { return f }
        var found: Face?
        for family in Self.preferredFallbacks {
            if let f = try? face(FontRequest(.family(family), weight: weight)), f.has(c) { found = f; break }
        }
        if found == nil, let first = c.unicodeScalars.first(where: { !$0.properties.isDefaultIgnorableCodePoint }) {
            for (path, index) in sortedCandidates(containing: first, weight: weight) {
                if let f = try? face(path: path, index: index), f.has(c) { found = f; break }
            }
        }
        fallbacks[key] = found
        return found
    }

    /// Files of installed scalable fonts with `scalar`, in fontconfig's order for it.
    private func sortedCandidates(containing scalar: Unicode.Scalar, weight: Int) -> [(String, Int)] {
        withPattern(weight: weight) { pattern in
            let charset = FcCharSetCreate()!
            defer { FcCharSetDestroy(charset) }
            _ = FcCharSetAddChar(charset, scalar.value)
            _ = FcPatternAddCharSet(pattern, FC_CHARSET, charset)
            _ = FcPatternAddBool(pattern, FC_SCALABLE, FcBool(FcTrue))
            _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultMatch
            guard let set = FcFontSort(nil, pattern, FcBool(FcFalse), nil, &result) else { return [] }
            defer { FcFontSetDestroy(set) }
            var out: [(String, Int)] = []
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i] else { continue }
                var fontCharset: OpaquePointer?
                guard FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharset) == FcResultMatch, let fontCharset,
                      FcCharSetHasChar(fontCharset, scalar.value) != 0, let file = Self.string(font, FC_FILE) else { continue }
                var index: Int32 = 0
                _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
                out.append((file, Int(index)))
                if out.count >= 8 { break }
            }
            return out
        }
    }
}

/// The one lock around FreeType, HarfBuzz and fontconfig, and the shared library of fonts.
public enum TextEngine {
    static let lock = NSLock()
    static let fonts = FontLibrary()   // only touched under `lock`

    /// Runs `body` holding the text lock.
    static func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The family name of the face a request resolves to (for messages and tests).
    public static func familyName(_ request: FontRequest) throws -> String {
        try locked { try fonts.face(request).family }
    }

    /// File and face index a request resolves to.
    public static func resolve(_ request: FontRequest) throws -> (path: String, index: Int, family: String) {
        try locked {
            let f = try fonts.face(request)
            return (f.path, f.index, f.family)
        }
    }

    /// The glyph index of `scalar` in the request's font (0: the font lacks it), from its character map.
    public static func glyphIndex(_ scalar: Unicode.Scalar, _ request: FontRequest) throws -> UInt32 {
        try locked { UInt32(FT_Get_Char_Index(try fonts.face(request).ft, FT_ULong(scalar.value))) }
    }

    /// Every installed family name, sorted (for "did you mean" suggestions).
    public static func installedFamilies() -> [String] { locked { fonts.installedFamilies() } }

    /// Checks that every character of `text` can be drawn with `request`'s font or a fallback.
    /// Returns the characters drawn with a fallback and the family each one uses.
    @discardableResult
    public static func checkCharacters(_ text: String, _ request: FontRequest) throws -> [(Character, String)] {
        try locked {
            let primary = try fonts.face(request)
            var used: [(Character, String)] = []
            var seen = Set<Character>()
            for c in text where !seen.contains(c) {
                seen.insert(c)
                if c == "\n" || c == "\r\n" || primary.has(c) { continue }
                guard let f = fonts.fallback(for: c, weight: request.weight) else {
                    throw FontError.missingCharacter(c, font: primary.family)
                }
                used.append((c, f.family))
            }
            return used
        }
    }
}
