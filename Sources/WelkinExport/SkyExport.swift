// The sky family: a palette `sky` layer becomes a gradient whose colours follow the sun (NOAA's
// solar position and the OKLab palette, copied into the file), tinted by the weather; the physical
// sky and the cloud layers have no Apple equivalent: they are reported here and drawn by Metal with
// `--package` (MetalExport).

import WelkinCore

enum SkyExport {
    static func export(_ content: SkyContent, layer: Layer, index: Int, context c: ExportContext) {
        switch content {
        case .sky(let sky) where sky.model == .physical:
            let kind = layer.content.typeName
            c.needsPackage.append("physical sky")
            let message = c.warn(index, kind, "\(MetalExport.onlyWithPackage): the physical sky (light scattered by the atmosphere, computed per frame from look-up tables) has no SwiftUI or Core Animation equivalent; \(MetalExport.drawnInPackage)")
            c.notExported(c.label(layer, index: index, kind: kind), message)
        case .sky(let sky):
            export(sky, layer: layer, index: index, c)
        case .cloudCover(let cover):
            let kind = layer.content.typeName
            let coverage = cover.coverage.map { c.n($0) } ?? "the weather's"
            c.needsPackage.append("cloud cover")
            let message = c.warn(index, kind, "\(MetalExport.onlyWithPackage): fBm cloud cover (coverage \(coverage), scale \(c.n(cover.scale)) pt, \(cover.octaves) octaves) has no SwiftUI or Core Animation equivalent; \(MetalExport.drawnInPackage)")
            c.notExported(c.label(layer, index: index, kind: kind), message)
        case .cloudSprites(let sprites):
            let kind = layer.content.typeName
            c.needsPackage.append("cloud sprites")
            let message = c.warn(index, kind, "\(MetalExport.onlyWithPackage): Welkin's \(sprites.count) drifting cloud sprites (\(sprites.kinds.map(\.rawValue).joined(separator: ", "))) have no SwiftUI or Core Animation equivalent; \(MetalExport.drawnInPackage)")
            c.notExported(c.label(layer, index: index, kind: kind), message)
        }
    }

    /// Whether scene layer `index` draws the Milky Way at any of `times` (a dated physical night
    /// with the catalogue's stars, once the band shows: PhysicalSkyDraw.drawsMilkyWay). A page
    /// says it leaves the band out when this is true (a package's track carries the map).
    static func drawsMilkyWay(_ scene: Scene, index: Int, times: [Double] = [0, 1.5, 7, 45.25, 600]) -> Bool {
        guard scene.layers.indices.contains(index), case .sky(let sky)? = scene.layers[index].content as? SkyContent, sky.model == .physical,
              case .computed = sky.sun, sky.stars, sky.physical.milkyWay > 0 else { return false }
        for t in times {
            let frame = Frame(scene: scene, time: t, pixelSize: scene.size)
            for (draw, source) in zip(frame.layers, frame.sceneLayerIndices) where source == index {
                guard let draw = draw as? SkyDraw else { continue }
                for case .physical(let p) in draw.parts where p.drawsMilkyWay { return true }
            }
        }
        return false
    }

    static func export(_ sky: SkyLayer, layer: Layer, index: Int, _ c: ExportContext) {
        let kind = layer.content.typeName
        c.runtime.insert("skyModel")
        let base = c.name(for: layer, index: index)
        let model = c.target == .swiftUI ? base : base + "Model"
        let label = c.label(layer, index: index, kind: kind)
        let span = c.n(max(sky.horizon, 1))
        let catalog = sky.stars && sky.effectiveStarSource == .catalog
        var night = ""
        if sky.stars { night += catalog ? " and the catalogue's stars" : " and the stars (density \(c.n(sky.starDensity)))" }
        if case .computed = sky.sun {
            if sky.moon { night += ", the Moon" }
            if sky.planets { night += ", the planets" }
        }
        let dropped = c.warn(index, kind, "\(MetalExport.onlyWithPackage): the sun's disc (\(c.n(sky.sunSize))°) and glow" + night
                             + ", drawn for a view toward azimuth \(c.n(sky.viewAzimuth))° with a \(c.n(sky.fieldOfView))° field of view; the gradient is exported")

        let animated: Bool
        var sunComment: String? = nil
        switch sky.sun {
        case .fixed:
            animated = false
        case .computed(let date, let latitude, let longitude, let timeScale):
            sunComment = "The real sun over latitude \(c.n(latitude)), longitude \(c.n(longitude)) from \(date) (\(c.n(date.unixSeconds)) s since 1970 UTC), \(c.n(timeScale)) sky seconds per second."
            animated = timeScale != 0
        }
        let tinted = weatherTints(c.scene)
        let weatherAnimates = tinted && !(c.scene.weather?.schedule.isEmpty ?? true)

        var m = SwiftSource()
        m.line("/// \(label): the palette by sun elevation (blended in OKLab) and where the sun is.")
        if let sunComment { m.comment(sunComment, prefix: "/// ") }
        m.block("private static let \(model) = WelkinSky(", ")") { s in
            for l in modelArguments(sky, c) { s.line(l) }
        }
        if !c.members.text.isEmpty { c.members.line() }
        c.members.lines(m.text)

        let what = "a gradient from the zenith (top) to the horizon (unit y \(c.n(sky.horizon))), its colours following the sun" + (tinted ? " and the weather" : "")
        if c.target == .swiftUI {
            c.runtime.insert("swiftUIColor")
            c.addView { s in
                s.comment(label + " → " + what + ".")
                s.comment(dropped)
                let gradient = "LinearGradient(stops: welkinStops(Self.\(model).stops(at: \(animated || weatherAnimates ? "t" : "0"))), startPoint: UnitPoint(x: 0.5, y: 0.0), endPoint: UnitPoint(x: 0.5, y: \(span)))"
                if animated || weatherAnimates {
                    c.animates = true
                    c.require(iOS: 15, macOS: 12)
                    s.block("TimelineView(.animation) { context in", "}") { s in
                        s.line("let t = context.date.timeIntervalSince(start)")
                        s.line(gradient)
                    }
                    s.line(".opacity(\(c.n(layer.opacity)))")
                } else {
                    s.line(gradient)
                    s.line("    .opacity(\(c.n(layer.opacity)))")
                }
            }
        } else {
            c.runtime.insert("cgColor")
            c.members.line("private let \(base) = CAGradientLayer()")
            var s = SwiftSource()
            s.comment(label + " → an axial CAGradientLayer: " + what + ".")
            s.comment(dropped)
            s.line("\(base).type = .axial")
            s.line("let \(base)Stops = Self.\(model).stops(at: 0)")
            s.line("\(base).colors = \(base)Stops.map { $0.color.cgColor }")
            s.line("\(base).locations = \(base)Stops.map { NSNumber(value: $0.location) }")
            if animated || weatherAnimates {
                var duration = 0.0
                var repeats = false
                if case .computed(_, _, _, let timeScale) = sky.sun, timeScale != 0 {
                    duration = 86400 / abs(timeScale)
                    repeats = !weatherAnimates
                }
                if weatherAnimates, let w = c.scene.weather, let last = w.schedule.last {
                    duration = max(duration, last.at + max(w.transition, 0))
                }
                let frames = min(1440, max(2, Int((duration * 30).rounded(.up))))
                let keyName = "\(base)Animation"
                s.comment("The colours change with " + (animated ? "the sun" : "the weather") + (animated && weatherAnimates ? " and the weather" : "")
                          + ": Core Animation plays \(frames) samples over \(c.n(duration)) s" + (repeats ? " (one sky day), then repeats the day." : ", then holds the last."))
                s.line("let \(base)Frames = \(frames), \(base)Duration = \(c.n(duration))")
                s.line("let \(keyName) = CAKeyframeAnimation(keyPath: \"colors\")")
                s.block("\(keyName).values = (0...\(base)Frames).map { i in", "}") { s in
                    s.line("Self.\(model).stops(at: \(base)Duration * Double(i) / Double(\(base)Frames)).map { $0.color.cgColor }")
                }
                s.line("\(keyName).keyTimes = (0...\(base)Frames).map { NSNumber(value: Double($0) / Double(\(base)Frames)) }")
                s.line("\(keyName).duration = \(base)Duration")
                if repeats {
                    s.line("\(keyName).repeatCount = .greatestFiniteMagnitude")
                } else {
                    s.line("\(keyName).fillMode = .forwards")
                    s.line("\(keyName).isRemovedOnCompletion = false")
                }
                s.line("\(base).add(\(keyName), forKey: \"colors\")")
            }
            s.line("\(base).opacity = \(c.n(layer.opacity))")
            s.line("addSublayer(\(base))")
            c.body.lines(s.text)
            c.layout.line("\(base).frame = bounds")
            c.layout.line("\(base).startPoint = welkinUnitPoint(0.5, 0.0)")
            c.layout.line("\(base).endPoint = welkinUnitPoint(0.5, \(span))")
        }
    }

    /// Whether some preset of the scene's weather tints the sky's palette.
    static func weatherTints(_ scene: Scene) -> Bool {
        guard let weather = scene.weather else { return false }
        return ([weather.preset] + weather.schedule.map(\.preset)).contains { $0.parameters.tint > 0 }
    }

    /// The arguments of `WelkinSky(…)` for `sky`, one per line: the sun, the palette, the horizon
    /// and the weather's tint.
    static func modelArguments(_ sky: SkyLayer, _ c: ExportContext) -> [String] {
        var lines: [String] = []
        switch sky.sun {
        case .fixed(let e, let a):
            lines.append("sun: .fixed(elevation: \(c.n(e)), azimuth: \(c.n(a))),")
        case .computed(let date, let latitude, let longitude, let timeScale):
            lines.append("sun: .computed(unixSeconds: \(c.n(date.unixSeconds)), latitude: \(c.n(latitude)), longitude: \(c.n(longitude)), timeScale: \(c.n(timeScale))),")
        }
        lines.append("palette: [")
        for k in sky.palette {
            lines.append("    WelkinSkyKeyframe(elevation: \(c.n(k.elevation)), zenith: \(c.rgba(k.zenith)), horizon: \(c.rgba(k.horizon)), sunGlow: \(c.rgba(k.sunGlow))),")
        }
        lines.append("],")
        guard weatherTints(c.scene), let weather = c.scene.weather else {
            lines.append("horizon: \(c.n(sky.horizon))")
            return lines
        }
        lines.append("horizon: \(c.n(sky.horizon)),")
        lines.append("weather: WelkinWeather(segments: [")
        let segments = [(-Double.infinity, weather.preset)] + weather.schedule.map { ($0.at, $0.preset) }
        for (at, preset) in segments {
            let p = preset.parameters
            let time = at.isFinite ? c.n(at) : "-Double.infinity"
            lines.append("    (at: \(time), tint: WelkinWeather.Tint(tint: \(c.n(p.tint)), zenith: \(c.rgba(p.tintZenith)), horizon: \(c.rgba(p.tintHorizon)))), // \(preset.rawValue)")
        }
        lines.append("], transition: \(c.n(weather.transition)))")
        return lines
    }
}

extension SkyContent: CodeExportable {
    func export(layer: Layer, index: Int, context: ExportContext) { SkyExport.export(self, layer: layer, index: index, context: context) }
}
