// The options several commands share, each declared once with its conversion. A command's own
// options live beside it (`Options.Compare`, `Options.Values`, …); the colour options in ColorOptions.swift.

import WelkinCore

/// Every option's declaration: shared ones here, a command's own in a nested namespace named for it.
enum Options {
    /// `--time T`: seconds, finite, within a scene's time range (the viewer's console has the same rule).
    static let time = Option<Double>("--time", value: "T", help: "Scene time in seconds (default 0).", default: 0) { text in
        guard let t = Double(text), t.isFinite else { throw OptionValueError(expected: "a number of seconds") }
        guard Scene.timeRange.contains(t) else {
            throw OptionValueError(expected: "a time in 0…\(Int(Scene.timeRange.upperBound)) s")
        }
        return t
    }

    /// `--size WxH`: pixels (or points, for import), each side 1…16384.
    static let size = Option<SIMD2<Int>?>("--size", value: "WxH", help: "Output size in pixels (default: the scene size).") { text in
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" }).map(String.init)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...StillGeometry.largestSide).contains(w), (1...StillGeometry.largestSide).contains(h) else {
            throw OptionValueError(expected: "WIDTHxHEIGHT with each side in 1…\(StillGeometry.largestSide)")
        }
        return SIMD2(w, h)
    }

    static let scale = Option<Double?>("--scale", value: "K",
                                       help: "Render at K times the scene size (2: twice as many pixels a side; not with --size).",
                                       convert: OptionConversion.number("a number greater than 0", where: { $0 > 0 }))

    static let fit = Option<StillGeometry.Fit?>("--fit", value: "MODE",
                                                help: "With --size of another aspect: stretch (default), cover (crop) or contain (transparent bars).",
                                                convert: OptionConversion.choice(StillGeometry.Fit.self))

    /// `-o`: a still's file here; each other command says what it writes (`with(value:help:)`).
    static let output = Option<String?>("--output", short: "-o", value: "OUT.png",
                                        help: "Where to write the PNG (default: NAME-tT.png here, NAME the scene file's name).",
                                        convert: OptionConversion.text)

    static let projection = Option<Commands.StillProjection>(
        "--projection", value: "P",
        help: "view (the scene's camera, default), equirect (the whole sphere, 2:1), fisheye (the all-sky dome, square) or cubemap (six faces; --size is a face's).",
        default: .view, convert: OptionConversion.choice(Commands.StillProjection.self))

    static let cross = Flag("--cross", help: "With --projection cubemap: one image, the faces in a horizontal cross (4N×3N), instead of six files.")
    static let float = Flag("--float", help: "With -o OUT.exr: 32-bit float channels instead of half.")

    static let shaders = Option<String?>("--shaders", value: "DIR",
                                         help: "Read Welkin's shaders from DIR (default: the checkout's Shaders/, else the installed copy).",
                                         convert: OptionConversion.text)

    /// `--json`: each command says what it prints (`with(help:)`).
    static let json = Flag("--json", help: "Print one JSON object instead of text.")

    // The observer of `welkin sun` and `welkin ephemeris`.
    static let date = Option<String?>("--date", value: "DATE", help: "2026-06-21T12:00:00+02:00, 'now', 2026-06-21T12:00 (UTC) or 2026-06-21 (noon).",
                                      convert: OptionConversion.text)
    static let latitude = Option<Double?>("--lat", value: "φ", help: "Latitude in degrees, north positive (−90…90).",
                                          convert: OptionConversion.number("degrees in −90…90", where: { abs($0) <= 90 }))
    static let longitude = Option<Double?>("--lon", value: "λ", help: "Longitude in degrees, east positive (−180…180).",
                                           convert: OptionConversion.number("degrees in −180…180", where: { abs($0) <= 180 }))
}
