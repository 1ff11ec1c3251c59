// Where `welkin render` and `welkin reference` write their PNG: `-o OUT.png`, or NAME-tT.png in
// the current folder (NAME: the scene file's name without its extension); and at what size:
// `--size`, `--scale` and `--fit` (StillGeometry).

import Foundation
import WelkinCore
import WelkinImage

extension Commands {
    /// The file name without `-o`: `snow-t1.5.png` for Scenes/snow.json at 1.5 s,
    /// `welkin-default-t0.png` for the built-in scene.
    static func defaultStillName(scenePath: String?, time: Double) -> String {
        let name = scenePath.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } ?? "welkin-default"
        let seconds = time == time.rounded() && abs(time) < 1e15 ? String(Int(time)) : "\(time)"
        return "\(name.isEmpty ? "scene" : name)-t\(seconds).png"
    }

    /// `-o OUT.png` or `-o OUT.exr` (any other extension is a usage error), or the default name.
    static func stillOutput(_ args: Arguments, command: Command) throws -> String {
        guard let out = args.value("--output") else {
            if args.flag("--float") {
                throw UsageError(message: "--float applies to EXR output; pass -o OUT.exr", command: command)
            }
            return defaultStillName(scenePath: args.positionals.first, time: try args.time())
        }
        let ext = (out as NSString).pathExtension.lowercased()
        guard ext == "png" || ext == "exr" else {
            throw UsageError(message: "'\(out)': welkin \(command.name) writes PNG or OpenEXR, so OUT must end in .png or .exr"
                             + " (for video, GIF or an image sequence use 'welkin export')", command: command)
        }
        if ext == "png", args.flag("--float") {
            throw UsageError(message: "--float applies to EXR output; '\(out)' is a PNG", command: command)
        }
        return out
    }

    static func isEXR(_ path: String) -> Bool { (path as NSString).pathExtension.lowercased() == "exr" }

    static let projectionOption = OptionSpec(name: "--projection", value: "P",
                                             help: "view (default: the scene's own view) or equirect (the whole sphere, width = 2 × height).")
    static let floatOption = OptionSpec(name: "--float", help: "With -o OUT.exr: 32-bit float channels instead of half.")

    /// The default size of an equirect panorama when no --size or --scale is given.
    static let equirectDefaultSize = SIMD2(2048, 1024)

    /// `--projection` and the output's light: the frame options, and the render's geometry (an
    /// equirect panorama is 2:1, 2048×1024 unless --size says otherwise).
    static func stillFrame(_ args: Arguments, scene: Scene, out: String, command: Command) throws -> (FrameOptions, StillGeometry) {
        var options = FrameOptions(linearLight: isEXR(out))
        if let text = args.value("--projection") {
            guard let p = FrameOptions.Projection(rawValue: text) else {
                throw UsageError(message: "--projection expects view or equirect, got '\(text)'", command: command)
            }
            options.projection = p
        }
        if options.linearLight, args.value("--fit") != nil {
            throw UsageError(message: "--fit applies to PNG output; an EXR is rendered at exactly --size", command: command)
        }
        guard options.projection == .equirect else {
            return (options, try StillGeometry.resolve(args, sceneSize: scene.size, command: command))
        }
        if args.value("--scale") != nil || args.value("--fit") != nil {
            throw UsageError(message: "an equirect panorama takes --size WxH (width = 2 × height), not --scale or --fit", command: command)
        }
        let size = try args.size() ?? equirectDefaultSize
        guard size.x == 2 * size.y else {
            throw UsageError(message: "an equirect panorama is twice as wide as it is high; --size \(size.x)x\(size.y) is not", command: command)
        }
        return (options, StillGeometry(renderSize: size, outputSize: size))
    }

    /// Prints the one warning a panorama gives when it leaves screen-space layers out.
    static func warnOmitted(_ frame: Frame, scene: String) {
        guard !frame.omittedLayers.isEmpty else { return }
        var seen: [String] = []
        for name in frame.omittedLayers where !seen.contains(name) { seen.append(name) }
        printError("\(scene): warning: the panorama leaves out the layers that live on the screen, not in the sky: \(seen.joined(separator: ", "))")
    }

    /// Writes a scene-linear image as OpenEXR: RGB when every pixel is opaque, RGBA otherwise.
    static func writeEXR(_ image: FloatImage, to path: String, float: Bool) throws {
        let opaque = image.pixels.allSatisfy { $0.w >= 1 }
        do {
            try EXR.write(image, to: path, channels: opaque ? .rgb : .rgba, precision: float ? .float : .half)
        } catch let e as EXRError {
            throw Failure(message: e.description)
        } catch let e as WriteError { throw Failure(message: e.description) }
    }
}

/// A still's size: what is rendered, and how the render becomes the output (`--fit`).
struct StillGeometry: Equatable {
    /// How `--size` of another aspect ratio than the scene's is filled.
    enum Fit: String, CaseIterable {
        /// The whole scene squeezed to WxH (points scaled per axis).
        case stretch
        /// The scene's aspect at the smallest size covering WxH, cropped about the centre.
        case cover
        /// The scene's aspect at the largest size inside WxH, centred between transparent bars.
        case contain
    }

    /// The size the renderer draws (nil: the scene size).
    var renderSize: SIMD2<Int>?
    /// The PNG's size.
    var outputSize: SIMD2<Int>
    /// Where the render's top-left corner lands in the output (negative: cropped there).
    var offset: SIMD2<Int> = .zero

    static let largestSide = 16384

    /// `--size WxH`, `--scale K` (K× the scene size) and `--fit stretch|cover|contain`.
    static func resolve(_ args: Arguments, sceneSize: SIMD2<Int>, command: Command) throws -> StillGeometry {
        let size = try args.size()
        var fit = Fit.stretch
        if let text = args.value("--fit") {
            guard let f = Fit(rawValue: text) else {
                throw UsageError(message: "--fit expects stretch, cover or contain, got '\(text)'", command: command)
            }
            guard size != nil else { throw UsageError(message: "--fit applies to --size WxH; pass --size too", command: command) }
            fit = f
        }
        if let text = args.value("--scale") {
            guard size == nil else { throw UsageError(message: "--scale and --size cannot be combined; pass one", command: command) }
            guard let k = Double(text), k.isFinite, k > 0 else {
                throw UsageError(message: "--scale expects a number greater than 0, got '\(text)'", command: command)
            }
            let scaled = SIMD2(Int((Double(sceneSize.x) * k).rounded()), Int((Double(sceneSize.y) * k).rounded()))
            guard scaled.x >= 1, scaled.y >= 1, scaled.x <= largestSide, scaled.y <= largestSide else {
                throw UsageError(message: "--scale \(text) makes \(scaled.x)×\(scaled.y) of the scene's \(sceneSize.x)×\(sceneSize.y);"
                                 + " each side must be in 1…\(largestSide)", command: command)
            }
            return StillGeometry(renderSize: scaled, outputSize: scaled)
        }
        guard let size else { return StillGeometry(renderSize: nil, outputSize: sceneSize) }
        return try resolve(size: size, sceneSize: sceneSize, fit: fit, command: command)
    }

    static func resolve(size: SIMD2<Int>, sceneSize: SIMD2<Int>, fit: Fit, command: Command?) throws -> StillGeometry {
        let ratio = SIMD2(Double(size.x) / Double(sceneSize.x), Double(size.y) / Double(sceneSize.y))
        let scaled = { (k: Double) in SIMD2(max(1, Int((Double(sceneSize.x) * k).rounded())), max(1, Int((Double(sceneSize.y) * k).rounded()))) }
        switch fit {
        case .stretch:
            return StillGeometry(renderSize: size, outputSize: size)
        case .cover:
            let render = SIMD2(max(size.x, scaled(ratio.max()).x), max(size.y, scaled(ratio.max()).y))
            guard render.x <= largestSide, render.y <= largestSide else {
                throw UsageError(message: "--fit cover of \(size.x)×\(size.y) renders \(render.x)×\(render.y), over \(largestSide) on a side", command: command)
            }
            return StillGeometry(renderSize: render, outputSize: size, offset: (size &- render) / 2)
        case .contain:
            let render = SIMD2(min(size.x, scaled(ratio.min()).x), min(size.y, scaled(ratio.min()).y))
            return StillGeometry(renderSize: render, outputSize: size, offset: (size &- render) / 2)
        }
    }

    /// The render as the PNG: cropped (cover) or between transparent bars (contain).
    func output(_ render: Image) -> Image {
        guard SIMD2(render.width, render.height) != outputSize || offset != .zero else { return render }
        return render.placed(on: outputSize, at: offset)
    }
}
