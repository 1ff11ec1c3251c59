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
        guard let out = try args[Options.output] else {
            if try args[Options.float] {
                throw UsageError(message: "--float applies to EXR output; pass -o OUT.exr", command: command)
            }
            return defaultStillName(scenePath: args.positionals.first, time: try args[Options.time])
        }
        let ext = (out as NSString).pathExtension.lowercased()
        guard ext == "png" || ext == "exr" else {
            throw UsageError(message: "'\(out)': welkin \(command.name) writes PNG or OpenEXR, so OUT must end in .png or .exr"
                             + " (for video, GIF or an image sequence use 'welkin export')", command: command)
        }
        if ext == "png", try args[Options.float] {
            throw UsageError(message: "--float applies to EXR output; '\(out)' is a PNG", command: command)
        }
        return out
    }

    static func isEXR(_ path: String) -> Bool { (path as NSString).pathExtension.lowercased() == "exr" }

    /// What `--projection` takes on the command line.
    enum StillProjection: String, CaseIterable {
        case view, equirect, fisheye, cubemap

        /// The size a panorama gets when no --size is given.
        var defaultSize: SIMD2<Int> {
            switch self {
            case .view: return .zero
            case .equirect: return SIMD2(2048, 1024)
            case .fisheye: return SIMD2(1024, 1024)
            case .cubemap: return SIMD2(512, 512)
            }
        }
    }

    /// What a still command draws and writes: the frames' options and geometry, and for a cube map
    /// its six faces as files or one cross.
    struct StillPlan {
        var options: FrameOptions
        var geometry: StillGeometry
        var projection: StillProjection
        var cross = false
        /// Bits per PNG channel (8 or 16).
        var depth = 8
    }

    /// `--projection` and the output's light: the frame options, and the render's geometry (an
    /// equirect panorama is 2:1, a fisheye and a cube face square; 2048×1024, 1024×1024 and 512×512
    /// unless --size says otherwise).
    static func stillPlan(_ args: Arguments, scene: Scene, out: String, depth: Int = 8, command: Command) throws -> StillPlan {
        var plan = try stillGeometryPlan(args, scene: scene, out: out, command: command)
        plan.depth = depth
        return plan
    }

    static func stillGeometryPlan(_ args: Arguments, scene: Scene, out: String, command: Command) throws -> StillPlan {
        var options = FrameOptions(linearLight: isEXR(out))
        let projection = try args[Options.projection]
        if options.linearLight, try args.contains(Options.fit) {
            throw UsageError(message: "--fit applies to PNG output; an EXR is rendered at exactly --size", command: command)
        }
        let cross = try args[Options.cross]
        if cross && projection != .cubemap {
            throw UsageError(message: "--cross lays out a cube map's faces; pass --projection cubemap", command: command)
        }
        guard projection != .view else {
            return StillPlan(options: options, geometry: try StillGeometry.resolve(args, sceneSize: scene.size, command: command), projection: .view)
        }
        if try args.contains(Options.scale) || args.contains(Options.fit) {
            throw UsageError(message: "a panorama takes --size WxH, not --scale or --fit", command: command)
        }
        let size = try args[Options.size] ?? projection.defaultSize
        switch projection {
        case .equirect:
            options.projection = .equirect
            guard size.x == 2 * size.y else {
                throw UsageError(message: "an equirect panorama is twice as wide as it is high; --size \(size.x)x\(size.y) is not", command: command)
            }
        case .fisheye, .cubemap:
            options.projection = projection == .fisheye ? .fisheye : .cubeFace(.px)
            guard size.x == size.y else {
                let what = projection == .fisheye ? "an all-sky fisheye is square" : "a cube map's faces are square (--size is one face's)"
                throw UsageError(message: "\(what); --size \(size.x)x\(size.y) is not", command: command)
            }
            if projection == .cubemap, cross, 4 * size.x > StillGeometry.largestSide {
                throw UsageError(message: "a cross of \(size.x)-pixel faces is \(4 * size.x) pixels wide, over \(StillGeometry.largestSide)", command: command)
            }
        case .view: break
        }
        return StillPlan(options: options, geometry: StillGeometry(renderSize: size, outputSize: size), projection: projection,
                         cross: projection == .cubemap && cross)
    }

    /// The files a plan writes: OUT, or a cube map's six faces OUT-px.png … OUT-nz.png.
    static func stillPaths(_ plan: StillPlan, out: String) -> [String] {
        guard plan.projection == .cubemap, !plan.cross else { return [out] }
        let ext = (out as NSString).pathExtension, stem = (out as NSString).deletingPathExtension
        return CubeFace.allCases.map { "\(stem)-\($0.name).\(ext)" }
    }

    /// A still as written: 8- or 16-bit display colours, or scene-linear floats.
    enum StillPicture {
        case png8(Image), png16(Image16), exr(FloatImage)

        var size: SIMD2<Int> {
            switch self {
            case .png8(let i): return SIMD2(i.width, i.height)
            case .png16(let i): return SIMD2(i.width, i.height)
            case .exr(let i): return SIMD2(i.width, i.height)
            }
        }

        /// Six faces (+x … −z) as their horizontal cross.
        static func cross(_ faces: [StillPicture]) -> StillPicture {
            switch faces[0] {
            case .png8: return .png8(Image.cubeCross(faces.compactMap { if case .png8(let i) = $0 { return i } else { return nil } }))
            case .png16: return .png16(Image16.cubeCross(faces.compactMap { if case .png16(let i) = $0 { return i } else { return nil } }))
            case .exr: return .exr(FloatImage.cubeCross(faces.compactMap { if case .exr(let i) = $0 { return i } else { return nil } }))
            }
        }
    }

    /// Renders the plan's frames with `image` (8-bit), `image16` (16-bit) or `linear` (EXR) and
    /// writes them, tagged with the scene's output colour space: one image, six faces, or the
    /// faces' cross. Returns a line saying what was written.
    static func writeStill(_ args: Arguments, scene: Scene, out: String, time: Double, plan: StillPlan,
                           image: (Frame) throws -> Image, image16: (Frame) throws -> Image16,
                           linear: (Frame) throws -> FloatImage) throws -> String {
        let paths = stillPaths(plan, out: out)
        for path in paths where path != out { try checkWritable(path) }
        var frameOptions: [FrameOptions] = [plan.options]
        if plan.projection == .cubemap {
            frameOptions = CubeFace.allCases.map { FrameOptions(projection: .cubeFace($0), linearLight: plan.options.linearLight) }
        }
        let sceneName = args.positionals.first ?? "<default scene>"
        let geometry = plan.geometry
        var pictures: [StillPicture] = []
        var space = scene.outputColorSpace
        for (index, options) in frameOptions.enumerated() {
            let frame = Frame(scene: scene, time: time, pixelSize: geometry.renderSize, options: options)
            if index == 0 { warnOmitted(frame, scene: sceneName) }
            space = frame.outputColorSpace
            if options.linearLight {
                pictures.append(.exr(try linear(frame)))
            } else if plan.depth == 16 {
                pictures.append(.png16(try image16(frame).placed(on: geometry.outputSize, at: geometry.offset)))
            } else {
                pictures.append(.png8(geometry.output(try image(frame))))
            }
        }
        if plan.cross { pictures = [StillPicture.cross(pictures)] }
        for (picture, path) in zip(pictures, paths) {
            switch picture {
            case .png8(let i): try writePNG(i, to: path, colorSpace: space)
            case .png16(let i): try writePNG16(i, to: path, colorSpace: space)
            case .exr(let i): try writeEXR(i, to: path, float: try args[Options.float])
            }
        }
        let size = pictures[0].size
        let what = "\(size.x)×\(size.y)\(plan.options.linearLight ? " scene-linear" : pictureNote(space, depth: plan.depth))"
        if paths.count == 1 { return "wrote \(out) (\(what)" }
        let ext = (out as NSString).pathExtension, stem = (out as NSString).deletingPathExtension
        return "wrote \(stem)-{\(CubeFace.allCases.map(\.name).joined(separator: ","))}.\(ext) (six \(what) faces"
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
        try EXR.write(image, to: path, channels: opaque ? .rgb : .rgba, precision: float ? .float : .half)
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
        let size = try args[Options.size]
        var fit = Fit.stretch
        if let f = try args[Options.fit] {
            guard size != nil else { throw UsageError(message: "--fit applies to --size WxH; pass --size too", command: command) }
            fit = f
        }
        if let text = try args.text(Options.scale) {
            guard size == nil else { throw UsageError(message: "--scale and --size cannot be combined; pass one", command: command) }
            let k = try args[Options.scale]!
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
