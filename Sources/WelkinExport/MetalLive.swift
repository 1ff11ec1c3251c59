// MetalLive: the uniforms of a Metal layer the package computes per frame, in Swift exported with it.
//
// A layer's track (MetalTrack) holds Welkin's values over a span of scene time and then its last.
// The uniforms that follow the scene clock run on past it instead, computed each frame by the
// package's WelkinLive.swift: the shaders' time (`u_time`, `iTime`, `iFrame`, `u_sky.time`,
// `u_physical.time`); a volumetric cloud layer's drift and evolution under its own wind or the
// weather's, cross-fades and all; a palette sky's sun (for its date), colours, stars and lightning
// under the weather; cloud sprites' boxes and colours. Each candidate has a model here (`value`:
// WelkinCore's own draw, or the clouds' drift with the constants taken at time 0) and the Swift the
// package carries (`swift`, twins of WelkinCore's code). A candidate is used only where its model
// gives, bit for bit, every value Welkin's GL path drew with at the track's samples and at probe
// times past it (each weather change, minutes and an hour on); one that misses stays recorded, and
// a dated sky with a night part keeps its palette recorded with it. MetalLiveTests holds
// the written Swift to the GL path's values.

import Foundation
import WelkinCore
import WelkinGL

/// One uniform the package computes per frame.
struct LiveUniform: @unchecked Sendable {
    /// The GL uniform (`u_clouds.offset`).
    var name: String
    /// Swift giving its components at scene time `t` (in the layer's enum of WelkinLive.swift).
    var swift: String
    /// The same numbers, here.
    var value: (Double) -> [Double]
    /// A constant the expression uses (`static let drift3 = WelkinCloudDrift(…)`), if any.
    var declaration: String?

    /// The 32-bit words GL holds for `values` as a uniform of GLSL `type` (as MetalLayout packs them).
    static func words(_ values: [Double], type: String) -> [UInt32] {
        values.map { v in
            if type.hasPrefix("int") || type.hasPrefix("ivec") {
                return UInt32(bitPattern: Int32(clamping: Int(v)))
            } else if type.hasPrefix("uint") || type.hasPrefix("uvec") {
                return UInt32(clamping: Int(v))
            }
            return Float(v).bitPattern
        }
    }
}

enum MetalLive {
    /// The candidates for the Metal layer drawing `sceneLayers` of `scene`. `programsChange`: the
    /// layer draws with other programs past the track than at its end (a dated sky whose night part
    /// ends): its palette then stays recorded too, so the colours and the held night sky agree.
    static func candidates(scene: Scene, sceneLayers: [Int], programsChange: Bool = false, model: LiveSkyValues? = nil) -> [LiveUniform] {
        // The clock: scene time as the shaders take it (Frame.time, Frame.frameNumber).
        var out: [LiveUniform] = ["u_time", "iTime", "u_sky.time", "u_physical.time"].map {
            LiveUniform(name: $0, swift: "[t]", value: { [$0] }, declaration: nil)
        }
        out.append(LiveUniform(name: "iFrame", swift: "[max(-1e15, min(1e15, (t * 60).rounded(.down)))]",
                               value: { [max(-1e15, min(1e15, ($0 * 60).rounded(.down)))] }, declaration: nil))
        // A cloud layer's drift, when the Metal layer draws one.
        let clouds = sceneLayers.compactMap { i in (scene.layers[i].content as? CloudsLayer).map { (i, $0) } }
        if clouds.count == 1, let (index, layer) = clouds.first, let drift = CloudDrift(scene: scene, layer: layer, index: index) {
            let name = "drift\(index)"
            let declaration = "static let \(name) = " + drift.swift
            out.append(LiveUniform(name: "u_clouds.offset", swift: "\(name).offset(at: t)", value: drift.offset, declaration: declaration))
            out.append(LiveUniform(name: "u_clouds.evolution", swift: "\(name).evolution(at: t)", value: drift.evolution, declaration: declaration))
            out.append(LiveUniform(name: "u_clouds.cirrusOffset", swift: "\(name).cirrusOffset(at: t)", value: drift.cirrusOffset, declaration: declaration))
        }
        // Cloud sprites' boxes, when the Metal layer draws one sprite layer.
        let sprites = sceneLayers.compactMap { i -> (Int, CloudSpritesLayer)? in
            guard case .cloudSprites(let layer)? = scene.layers[i].content as? SkyContent else { return nil }
            return (i, layer)
        }
        if sprites.count == 1, let (index, layer) = sprites.first, let drift = SpriteDrift(scene: scene, layer: layer, index: index) {
            out.append(LiveUniform(name: "u_spriteBoxes", swift: "sprites\(index).boxes(at: t)", value: drift.boxes,
                                   declaration: "static let sprites\(index) = " + drift.swift))
            // Their colours and sun come from the frame's sky (its first sky layer), when that is a palette computed per frame.
            let first = scene.layers.lazy.compactMap { l -> SkyLayer? in
                if case .sky(let s)? = l.content as? SkyContent { return s }
                return nil
            }.first ?? SkyLayer()
            if first.model == .palette, first.clockOffset == 0, first.refraction, !programsChange, !hasNightPart(first) {
                out += spriteColors(layer, index: index, sky: first, scene: scene)
            }
        }
        // A palette sky's sun, colours, stars and lightning, when the Metal layer draws one.
        let palettes = sceneLayers.compactMap { i -> SkyLayer? in
            guard case .sky(let sky)? = scene.layers[i].content as? SkyContent, sky.model == .palette else { return nil }
            return sky
        }
        if palettes.count == 1, let sky = palettes.first, sky.clockOffset == 0, sky.refraction, !programsChange, !hasNightPart(sky) {
            out += paletteSky(sky, scene: scene)
        }
        // A physical sky's and its clouds' every uniform, from the package's copy of WelkinSkyModel,
        // in place of the twins above for the same names (the clock, the clouds' drift).
        if let model, sceneLayers.contains(where: { model.drawn.contains($0) }) {
            let names = Set(model.names)
            out = model.names.map { name in
                LiveUniform(name: name, swift: "welkinSky.uniforms(at: t)[\(SwiftLiteral.string(name))] ?? []",
                            value: { model.uniforms(at: $0)[name] ?? [] }, declaration: nil)
            } + out.filter { !names.contains($0.name) }
        }
        return out
    }

    /// Whether a dated sky may draw stars from the catalogue, planets or the Moon: their places
    /// come from Welkin's ephemeris and star catalogue as recorded textures and uniforms, and a
    /// palette computed past the track would light a held night sky (day colours round a night's
    /// stars), so such a sky's palette stays recorded with them.
    static func hasNightPart(_ sky: SkyLayer) -> Bool {
        guard case .computed = sky.sun else { return false }
        return (sky.stars && sky.effectiveStarSource == .catalog) || sky.moon || sky.planets
    }

    /// The live uniforms of a palette sky (SkyGradientDraw's per-frame fields); the model is WelkinCore's own draw.
    static func paletteSky(_ sky: SkyLayer, scene: Scene) -> [LiveUniform] {
        let pixelSize = Frame(scene: scene, time: 0).pixelSize
        func draw(_ t: Double) -> SkyGradientDraw {
            let state = SkyState(layer: sky, time: t, weather: WeatherState(scene.weather, time: t, seed: scene.seed))
            return SkyGradientDraw(sky, state: state, opacity: 1, time: t, seed: 0, pixelSize: pixelSize, scale: SIMD2(1, 1))
        }
        func d<V: SIMD>(_ v: V) -> [Double] where V.Scalar == Float { v.indices.map { Double(v[$0]) } }
        let declaration = paletteDeclaration(sky, name: "palette", scene: scene, pixelSize: pixelSize)
        let fields: [(String, String, (Double) -> [Double])] = [
            ("u_sky.sun", "sun", { d(draw($0).sun) }), ("u_sky.zenith", "zenith", { d(draw($0).zenith) }),
            ("u_sky.horizon", "horizon", { d(draw($0).horizon) }), ("u_sky.glow", "glow", { d(draw($0).glow) }),
            ("u_sky.sunColor", "sunColor", { d(draw($0).sunColor) }), ("u_sky.stars", "stars", { d(draw($0).stars) }),
            ("u_sky.flash", "flash", { [Double(draw($0).flash)] }),
        ]
        return fields.map { LiveUniform(name: $0.0, swift: "palette.\($0.1)(at: t)", value: $0.2, declaration: declaration) }
    }

    /// The live colours and sun of a cloud sprite layer (CloudSpritesDraw's), from the frame's first sky layer `sky`.
    static func spriteColors(_ layer: CloudSpritesLayer, index: Int, sky: SkyLayer, scene: Scene) -> [LiveUniform] {
        let frame = Frame(scene: scene, time: 0)
        func draw(_ t: Double) -> CloudSpritesDraw? {
            SkyState.of(scene, time: t).map { CloudSpritesDraw(layer, state: $0, opacity: 1, seed: 0, pixelSize: frame.pixelSize, scale: frame.scale) }
        }
        func d<V: SIMD>(_ v: V?) -> [Double] where V.Scalar == Float { v.map { v in v.indices.map { Double(v[$0]) } } ?? [] }
        let declaration = paletteDeclaration(sky, name: "spriteSky", scene: scene, pixelSize: frame.pixelSize)
        return [
            LiveUniform(name: "u_sprite.lit", swift: "spriteSky.cloudColors(at: t).lit", value: { d(draw($0)?.lit) }, declaration: declaration),
            LiveUniform(name: "u_sprite.shadow", swift: "spriteSky.cloudColors(at: t).shadow", value: { d(draw($0)?.shadow) }, declaration: declaration),
            LiveUniform(name: "u_sprite.glow", swift: "spriteSky.cloudColors(at: t).glow", value: { d(draw($0)?.glow) }, declaration: declaration),
            LiveUniform(name: "u_sprite.sun", swift: "spriteSky.sun(at: t)", value: { d(draw($0)?.sun) }, declaration: declaration),
        ]
    }

    /// `private static let NAME = WelkinPaletteSkyLive(…)` for `sky` in `scene`.
    static func paletteDeclaration(_ sky: SkyLayer, name: String, scene: Scene, pixelSize: SIMD2<Int>) -> String {
        let c = ExportContext(scene: scene, target: .swiftUI)
        let weather = scene.weather ?? Weather()
        func values(_ p: WeatherPreset) -> String {
            let w = p.parameters
            return "[\(c.n(w.tint)), \(c.n(w.cover)), \(c.n(w.starVisibility)), \(c.n(w.lightning)), \(c.n(w.cloudDarkness))]"
        }
        let changes = weather.schedule.map { "(at: \(c.n($0.at)), values: \(values($0.preset)))" }.joined(separator: ", ")
        let random = sky.stars && sky.effectiveStarSource == .random
        return (["private static let \(name) = WelkinPaletteSkyLive(", "    sky: WelkinSky("]
            + SkyExport.modelArguments(sky, c).map { "        " + $0 }
            + ["    ),",
               "    weather: WelkinWeatherSchedule(first: \(values(weather.preset)), changes: [\(changes)], transition: \(c.n(weather.transition))),",
               "    seed: \(scene.seed), viewAzimuth: \(c.n(sky.viewAzimuth)), fieldOfView: \(c.n(sky.fieldOfView)), width: \(pixelSize.x), height: \(pixelSize.y),",
               "    randomStars: \(random), starDensity: \(c.n(sky.starDensity))",
               ")"]).joined(separator: "\n    ")
    }

    /// Scene times past the track where a live model must also hold: around each weather change,
    /// and a minute, ten minutes and an hour on.
    static func probeTimes(scene: Scene, after duration: Double) -> [Double] {
        var times = [duration + 0.75, 61.25, 600.5, 3600.25]
        if let w = scene.weather {
            for change in w.schedule {
                times += [change.at, change.at + w.transition * 0.37, change.at + w.transition, change.at + w.transition + 2.5]
            }
        }
        return times.filter { $0 > duration && $0.isFinite && $0 < 1e7 }.sorted()
    }

    /// The candidates whose model gives every captured value of the uniform they name (draws in
    /// `captures`, each at its time), and that some draw uses.
    static func decide(_ candidates: [LiveUniform], captures: [(time: Double, draws: [GLCapture.Draw])]) -> [LiveUniform] {
        // Each capture's uniforms by name, once (a hundred candidates over a thousand samples each
        // walked every draw's uniforms: most of a debug build's export of the default scene).
        let indexed: [(time: Double, uniforms: [String: [GLCapture.Uniform]])] = captures.map { capture in
            var byName: [String: [GLCapture.Uniform]] = [:]
            for d in capture.draws { for u in d.uniforms { byName[u.name, default: []].append(u) } }
            return (capture.time, byName)
        }
        return candidates.filter { c in
            var used = false
            for (time, uniforms) in indexed {
                guard let found = uniforms[c.name] else { continue }
                let expected = c.value(time)
                for u in found {
                    // An array's first elements (a shader reads as many as its count says); else the whole value.
                    let words = LiveUniform.words(expected, type: u.type)
                    guard u.count == 1 ? u.words == words : words.count <= u.words.count && Array(u.words.prefix(words.count)) == words else { return false }
                    used = true
                }
            }
            return used
        }
    }

    /// The samplers whose texture the package makes each frame (LiveSkyValues.textureNames): the
    /// layer's live uniforms come from the model, and every texture captured for the sampler, at
    /// each sample and probe, is byte for byte the model's.
    static func decideTextures(model: LiveSkyValues?, sceneLayers: [Int], live: [LiveUniform],
                               captures: [(time: Double, draws: [GLCapture.Draw])]) -> [String] {
        guard live.contains(where: { $0.swift.hasPrefix("welkinSky.") }), let model,
              sceneLayers.contains(where: { model.drawn.contains($0) }) else { return [] }
        return LiveSkyValues.textureNames.filter { name in
            var used = false
            for (time, draws) in captures {
                for d in draws {
                    guard case .texture(let texture)? = d.samplers[name] else { continue }
                    guard let made = model.texture(name, at: time), made.format.rawValue == texture.format.rawValue,
                          SIMD3(made.width, made.height, made.depth) == texture.size, sameBytes(made.bytes, texture.bytes) else { return false }
                    used = true
                }
            }
            return used
        }
    }

    /// Whether `values` are, byte for byte, `bytes` (memcmp: a generic walk over 400 KB a sample was
    /// the slowest part of a debug build's export).
    static func sameBytes<T>(_ values: [T], _ bytes: [UInt8]) -> Bool {
        values.withUnsafeBytes { a in
            bytes.withUnsafeBytes { b in a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0) }
        }
    }

    /// The package's WelkinLive.swift: the runtime it needs and one enum per layer with live uniforms.
    static func source(_ layers: [MetalExport.Layer]) -> String {
        var s = """
        // WelkinLive.swift — generated by `welkin export-code --package`: the Metal layers' uniforms that
        // follow the scene clock, computed each frame (the rest come from each layer's track). Foundation
        // only, each function the twin of the WelkinCore code it names; a physical sky's uniforms come
        // from the package's copy of Welkin's WelkinSkyModel itself (WelkinSkyLive).

        import Foundation
        \(layers.contains { $0.liveSky != nil } ? "import WelkinSkyModel\n" : "")
        \(RuntimeSupport.closure(["skyModel"]).map(\.source).joined(separator: "\n\n"))

        \(weatherSource)

        \(cloudDriftSource)

        \(spriteDriftSource)

        """
        if let sky = layers.lazy.compactMap(\.liveSky).first {
            s += skySource(sky)
        }
        for layer in layers where !layer.live.isEmpty {
            s += "\n/// \(layer.name)'s live uniforms: " + layer.live.map { "`\($0.name)`" }.joined(separator: ", ") + ".\n"
            s += "enum \(layer.name)Live {\n"
            for declaration in Set(layer.live.compactMap(\.declaration)).sorted() { s += "    \(declaration)\n\n" }
            s += "    /// Each uniform's components at scene time `t` (seconds), in the order the track's `live` entries name.\n"
            // A live sky's uniforms come from the view's own WelkinSkyLive.
            let sky = layer.live.contains { $0.swift.hasPrefix("welkinSky.") }
            s += "    static func values(at t: Double\(sky ? ", sky: WelkinSkyLive = welkinSky" : "")) -> [[Double]] {\n        [\n"
            for u in layer.live { s += "            \(sky ? u.swift.replacingOccurrences(of: "welkinSky.", with: "sky.") : u.swift),   // \(u.name)\n" }
            s += "        ]\n    }\n}\n"
        }
        return s
    }

    /// The package's live sky: the scene's LiveSky (as JSON) and the draws of the frame's time, made
    /// by the package's copy of WelkinSkyModel (Sources/WelkinSkyModel, Welkin's own files).
    static func skySource(_ sky: LiveSky) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(sky)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return #"""

        /// The scene's physical sky and clouds as Welkin's LiveSky reads them: computed each frame by the
        /// package's copy of Welkin's WelkinSkyModel (the sun and Moon for the date and place, the
        /// weather, the sky-view table, the clouds' light).
        let welkinSkySettings = ##"
        """# + json + #"""
        "##

        /// The live sky's draws for the frame being drawn (the sky and clouds layers ask for the same
        /// time), and the view's inputs: another date, place or time scale, a change of weather.
        final class WelkinSkyLive: @unchecked Sendable {
            private var sky: LiveSky?
            private let lock = NSLock()
            private var time = Double.nan
            private var draws: LiveSky.Draws?
            private var uniformNumbers: [String: [Double]] = [:]
            /// The textures made, by sampler, with what they were made from: this frame's (the sky
            /// and clouds layers both ask), or one that lasts — the Milky Way's map and the clouds'
            /// noise for good, a sky-view table for as long as the model hands back the same table
            /// (a still sun) — so a frame copies no texels it already has (and the player's
            /// comparison finds the same bytes at once).
            private var texels: [String: (texels: WelkinTexels, source: Source)] = [:]
            private var frame = 0
            /// A table is held while its texels are (so no other table can take its address).
            private enum Source {
                case frame(Int), table(AnyObject), lasting
                static func == (a: Source, b: Source) -> Bool {
                    switch (a, b) {
                    case (.frame(let x), .frame(let y)): return x == y
                    case (.table(let x), .table(let y)): return x === y
                    case (.lasting, .lasting): return true
                    default: return false
                    }
                }
            }

            init(settings: String, date: Date? = nil, latitude: Double? = nil, longitude: Double? = nil, timeScale: Double? = nil,
                 weather: String? = nil) {
                do {
                    sky = try JSONDecoder().decode(LiveSky.self, from: Data(settings.utf8))
                } catch {
                    print("Welkin: the live sky's settings cannot be read (\(error)); its uniforms stay as recorded")
                    sky = nil
                }
                sky?.place(date: date, latitude: latitude, longitude: longitude, timeScale: timeScale)
                if let weather, let preset = WeatherPreset(rawValue: weather) { sky?.changeWeather(to: preset, at: 0) }
            }

            private func update(_ t: Double) {
                guard let sky, t != time else { return }
                time = t
                let d = sky.draws(at: t)
                draws = d
                uniformNumbers = d.uniformNumbers
                frame += 1
            }

            /// What sampler `name`'s texture is made from this frame.
            private func source(_ name: String) -> Source {
                switch name {
                case "u_milkyWay", "u_weather", "u_shape": return .lasting
                case "u_skyView": return draws?.physical.map { .table($0.table) } ?? .frame(frame)
                case "u_moonView":
                    guard let p = draws?.physical else { return .frame(frame) }
                    guard let moon = p.moonTable, p.moonSkyScale > 0 else { return .lasting }   // one black texel
                    return .table(moon)
                default: return .frame(frame)
                }
            }

            /// Every uniform of the sky's and clouds' passes at scene time `t`, by GLSL name.
            func uniforms(at t: Double) -> [String: [Double]] {
                lock.lock(); defer { lock.unlock() }
                update(t)
                return uniformNumbers
            }

            /// The texture GLSL sampler `name` reads at scene time `t`: its size and texels.
            func texture(_ name: String, _ t: Double) -> WelkinTexels? {
                lock.lock(); defer { lock.unlock() }
                update(t)
                let from = source(name)
                if let made = texels[name], made.source == from { return made.texels }
                guard let texture = draws?.texture(name) else { return nil }
                let made = WelkinTexels(width: texture.width, height: texture.height, depth: texture.depth, bytes: texture.bytes)
                texels[name] = (made, from)
                return made
            }

            /// How strongly the weather's `kind` ("rain", "snow") falls at the frame last drawn (0…1):
            /// the rain and snow emitters' birth rates follow it.
            func precipitation(_ kind: String) -> Double {
                lock.lock(); defer { lock.unlock() }
                let k: PrecipitationKind? = kind == "rain" ? .rain : kind == "snow" ? .snow : nil
                guard let sky, let k else { return 0 }
                return sky.precipitation(k, at: time.isNaN ? 0 : time)
            }

            /// The sky for another date (at the view's start), place or time scale; nil keeps the scene's.
            func place(date: Date?, latitude: Double?, longitude: Double?, timeScale: Double?) {
                lock.lock(); defer { lock.unlock() }
                sky?.place(date: date, latitude: latitude, longitude: longitude, timeScale: timeScale)
                time = .nan
            }

            /// Cross-fades to Welkin's weather preset `name` from the frame last drawn on.
            func change(weather name: String) {
                lock.lock(); defer { lock.unlock() }
                guard let preset = WeatherPreset(rawValue: name) else { return }
                sky?.changeWeather(to: preset, at: time.isNaN ? 0 : time)
                time = .nan
            }
        }

        /// The scene's sky as it comes (a view made with inputs keeps its own).
        let welkinSky = WelkinSkyLive(settings: welkinSkySettings)

        """#
    }

    /// Twin of WeatherState's one walk through the schedule: the numbers at a time and their integrals.
    static let weatherSource = #"""
    /// Numbers a weather preset sets (WelkinCore's WeatherParameters), cross-faded as WeatherState
    /// does: the first preset's, then each scheduled change fading to its own over `transition`
    /// seconds with a smoothstep (from wherever the last fade had got to); and their integrals over
    /// scene time (`windTravel`: ∫ wind dt; `drift`: ∫ cloud speed / 0.3 dt). `steady`: a scene
    /// without weather, whose integrals are time × value / divisor.
    struct WelkinWeatherSchedule: Sendable {
        var first: [Double]
        var changes: [(at: Double, values: [Double])]
        var transition: Double
        var steady = false

        /// The numbers at `time`.
        func at(_ time: Double) -> [Double] { walk(time, divisor: nil).values }

        /// ∫ value / `divisor` dt from 0 to `time`, exactly through each smoothstep.
        func integral(at time: Double, over divisor: Double) -> [Double] {
            if steady { return first.map { time * $0 / divisor } }
            if time < 0 { return first.map { time * $0 / divisor }.map { $0.isFinite ? $0 : 0 } }
            return walk(time, divisor: divisor).integral.map { $0.isFinite ? $0 : 0 }
        }

        /// Segment by segment up to `time`: the numbers there, and (with a divisor) the integrals from 0.
        private func walk(_ time: Double, divisor: Double?) -> (values: [Double], integral: [Double]) {
            let segments: [(at: Double, values: [Double])] = [(-Double.infinity, first)] + changes
            let transition = max(self.transition, 0)
            var start = first
            var total = [Double](repeating: 0, count: first.count)
            var clock = min(0, time)
            for (index, segment) in segments.enumerated() {
                let end = index + 1 < segments.count ? segments[index + 1].at : Double.infinity
                let target = segment.values
                let from = start
                func at(_ t: Double) -> [Double] {
                    guard transition > 0, segment.at.isFinite else { return target }
                    let u = min(max((t - segment.at) / transition, 0), 1)
                    if u >= 1 { return target }
                    let f = u * u * (3 - 2 * u)
                    return zip(from, target).map { $0 + ($1 - $0) * f }
                }
                func integral(_ a: Double, _ b: Double, from t0: Double, to t1: Double) -> Double {
                    func primitive(_ t: Double) -> Double {
                        guard transition > 0, segment.at.isFinite else { return b * t }
                        let u = min(max((t - segment.at) / transition, 0), 1)
                        let faded = transition * (u * u * u - u * u * u * u / 2)
                        let before = min(t - segment.at, 0)
                        let after = max(t - segment.at - transition, 0)
                        return a * before + a * (transition * u) + (b - a) * faded + b * after
                    }
                    return primitive(t1) - primitive(t0)
                }
                let t1 = min(time, end)
                if let divisor, t1 > clock {
                    for k in total.indices { total[k] += integral(from[k] / divisor, target[k] / divisor, from: clock, to: t1) }
                    clock = t1
                }
                if time < end { return (at(time), total) }
                start = at(end)
            }
            return (start, total)
        }
    }
    """#

    /// Twin of CloudSpritesDraw's boxes.
    static let spriteDriftSource = #"""
    /// Cloud sprites drifting left to right and wrapping (WelkinCore's CloudSpritesDraw): each
    /// sprite's phase, crossing time, half size, span and centre y (pixels); the layer's own speed
    /// or the weather's drift.
    struct WelkinSpriteDrift: Sendable {
        var speed: Double?
        /// The weather's cloud speeds, and the clear sky's (drift is ∫ speed / clearSpeed dt).
        var weather: WelkinWeatherSchedule
        var clearSpeed: Double
        var sprites: [Sprite]

        struct Sprite: Sendable {
            var phase: Double, crossing: Double, halfWidth: Double, span: Double, y: Double, halfHeight: Double
        }

        /// Centre x, centre y, half width, half height of each sprite, pixels.
        func boxes(at t: Double) -> [Double] {
            let steady = speed.map { $0 * t } ?? weather.integral(at: t, over: clearSpeed)[0]
            let drift = steady.isFinite ? steady : 0
            var out: [Double] = []
            for s in sprites {
                var u = (s.phase + drift / s.crossing).truncatingRemainder(dividingBy: 1)
                if u < 0 { u += 1 }
                out += [-s.halfWidth * 1.3 + u * s.span, s.y, s.halfWidth, s.halfHeight]
            }
            return out
        }
    }
    """#

    /// Twin of CloudsDraw's drift (offset, evolution, cirrusOffset) with the layer's constants.
    static let cloudDriftSource = #"""
    /// A storm's seeded lightning (WelkinCore's WeatherState.lightning): each second may hold one
    /// flash, a bright stroke and a fainter return.
    enum WelkinLightning {
        static func hash32(_ value: UInt32) -> UInt32 {
            var x = value
            x ^= x >> 16
            x = x &* 0x7feb_352d
            x ^= x >> 15
            x = x &* 0x846c_a68b
            x ^= x >> 16
            return x
        }

        static func unit(_ h: UInt32) -> Float { Float(h >> 8) * (1 / 16_777_216) }

        static func brightness(time: Double, seed: UInt64) -> Double {
            guard time.isFinite else { return 0 }
            let slotLength = 1.0
            let slot = (time / slotLength).rounded(.down)
            var brightness = 0.0
            for k in [slot - 1, slot] {
                guard abs(k) < 1e9 else { continue }
                let h = hash32(UInt32(bitPattern: Int32(k)) ^ hash32(UInt32(bitPattern: 0x5717) ^ hash32(UInt32(truncatingIfNeeded: seed) ^ 0x11ab)))
                guard Double(unit(h)) < 0.16 else { continue }
                let offset = Double(unit(hash32(h ^ 0x9e37_79b9))) * slotLength * 0.8
                let dt = time - (k * slotLength + offset)
                func pulse(_ x: Double, _ width: Double) -> Double {
                    guard x >= 0, x < width else { return 0 }
                    let f = 1 - x / width
                    return f * f
                }
                brightness += pulse(dt, 0.22) + 0.7 * pulse(dt - 0.14, 0.3)
            }
            return min(brightness, 1)
        }
    }

    /// A palette sky's per-frame numbers (WelkinCore's SkyGradientDraw): the sun's pixel, the
    /// palette's colours and glow under the weather's tint, the sun disc's colour, the random
    /// stars' visibility, the lightning's flash and the colours cloud sprites take from the sky
    /// (SkyState.cloudColors). `weather`: [tint, cover, starVisibility, lightning, cloudDarkness].
    private struct WelkinPaletteSkyLive: Sendable {
        var sky: WelkinSky
        var weather: WelkinWeatherSchedule
        var seed: UInt64
        var viewAzimuth: Double
        var fieldOfView: Double
        var width: Int
        var height: Int
        var randomStars: Bool
        var starDensity: Double

        func sun(at t: Double) -> [Double] {
            let p = sky.sunPosition(at: t)
            let dpp = fieldOfView / Double(max(width, 1))
            var da = (p.azimuth - viewAzimuth).truncatingRemainder(dividingBy: 360)
            if da > 180 { da -= 360 }
            if da < -180 { da += 360 }
            return [Double(width) / 2 + da / dpp, sky.horizon * Double(height) - p.elevation / dpp]
        }

        func zenith(at t: Double) -> [Double] { let c = sky.colors(at: t).zenith.lab; return [c.x, c.y, c.z] }

        func horizon(at t: Double) -> [Double] { let c = sky.colors(at: t).horizon.lab; return [c.x, c.y, c.z] }

        func glow(at t: Double) -> [Double] {
            var g = welkinSkyPalette(sky.palette, elevation: sky.sunPosition(at: t).elevation).glow
            let tint = weather.at(t)[0]
            if tint > 0 { g.alpha *= 1 - 0.85 * tint }
            let linear = SIMD3<Double>(WelkinColorMath.oklabToLinear(SIMD3<Float>(g.lab))).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
            let v = linear * g.alpha
            return [v.x, v.y, v.z]
        }

        func sunColor(at t: Double) -> [Double] {
            let e = sky.sunPosition(at: t).elevation, w = weather.at(t)
            let warm = min(max((e + 1) / 12, 0), 1)
            let disc = SIMD3<Double>(1.0, 0.55 + 0.4 * warm, 0.25 + 0.65 * warm)
            let hidden = 1 - 0.9 * w[0] * w[1]
            let v = disc * max(hidden, 0) * (e > -2 ? 1 : 0)
            return [v.x, v.y, v.z]
        }

        func stars(at t: Double) -> [Double] {
            let e = sky.sunPosition(at: t).elevation
            let night = min(max((-6 - e) / 6, 0), 1)
            let fade = night * night * (3 - 2 * night)
            return [randomStars ? fade * weather.at(t)[2] : 0, starDensity]
        }

        func flash(at t: Double) -> [Double] {
            let lightning = weather.at(t)[3]
            return [(lightning > 0 ? lightning * WelkinLightning.brightness(time: t, seed: seed) : 0) * 0.35]
        }

        /// Cloud sprites' lit and shadow colours and the sun's glow on them (straight sRGB; the glow × its alpha).
        func cloudColors(at t: Double) -> (lit: [Double], shadow: [Double], glow: [Double]) {
            let e = sky.sunPosition(at: t).elevation, c = sky.colors(at: t), w = weather.at(t)
            var sunGlow = welkinSkyPalette(sky.palette, elevation: e).glow
            if w[0] > 0 { sunGlow.alpha *= 1 - 0.85 * w[0] }
            let day = min(max((c.zenith.lab.x - 0.2) / 0.35, 0), 1)
            let white = WelkinOklab(WelkinRGBA(0.97, 0.97, 1.0, 1))
            let nightLit = WelkinOklab(lab: SIMD3(c.horizon.lab.x * 0.9 + 0.12, c.horizon.lab.y * 0.6, c.horizon.lab.z * 0.6), alpha: 1)
            var lit = WelkinOklab.mix(nightLit, white, day)
            let lowSun = min(max(1 - (e - 2) / 14, 0), 1) * min(max((e + 8) / 8, 0), 1)
            lit = .mix(lit, WelkinOklab(lab: sunGlow.lab, alpha: 1), 0.65 * lowSun * (1 - 0.75 * w[0] * w[4]))
            lit.lab.x *= 1 - 0.35 * w[4]
            var shadow = WelkinOklab.mix(WelkinOklab(lab: c.zenith.lab, alpha: 1), WelkinOklab(WelkinRGBA(0.45, 0.47, 0.55, 1)), 0.55)
            shadow.lab.x *= 0.55 + 0.45 * day
            shadow.lab.x *= 1 - 0.45 * w[4]
            shadow.lab.y *= 0.7; shadow.lab.z *= 0.7
            let flash = w[3] > 0 ? w[3] * WelkinLightning.brightness(time: t, seed: seed) : 0
            if flash > 0 {
                let bright = WelkinOklab(WelkinRGBA(0.92, 0.93, 1.0, 1))
                lit = .mix(lit, bright, flash * 0.8)
                shadow = .mix(shadow, bright, flash * 0.5)
            }
            func srgb(_ o: WelkinOklab) -> SIMD3<Float> {
                let linear = SIMD3<Double>(WelkinColorMath.oklabToLinear(SIMD3<Float>(o.lab))).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
                return WelkinColorMath.linearToSRGB(SIMD3<Float>(linear))
            }
            let l = srgb(lit), s = srgb(shadow), g = srgb(sunGlow) * Float(sunGlow.alpha * (1 - 0.6 * w[4]))
            return ([Double(l.x), Double(l.y), Double(l.z)], [Double(s.x), Double(s.y), Double(s.z)], [Double(g.x), Double(g.y), Double(g.z)])
        }
    }

    /// A cloud layer's drift and evolution (WelkinCore's CloudsDraw): the layer's own wind (m/s) or
    /// the weather's travel, turned into the view, over the cloud scales, wrapped to 0…1.
    struct WelkinCloudDrift: Sendable {
        var wind: SIMD2<Double>?
        /// The weather's winds (points per second).
        var weather: WelkinWeatherSchedule
        var metresPerWindPoint: Double
        var right: SIMD2<Double>
        var forward: SIMD2<Double>
        var scales: WelkinWeatherSchedule
        var scale: Double
        var random: [Double]
        var evolutionRate: Double
        var evolution: Double
        var cirrusScale: Double

        static func wrapped(_ v: Double) -> Double { v.isFinite ? v - v.rounded(.down) : 0 }

        func kilometres(at t: Double) -> SIMD2<Double> {
            let w = weather.integral(at: t, over: 1)
            let travel = wind.map { $0 * t } ?? SIMD2(w[0], w[1]) * metresPerWindPoint
            return (right * travel.x + forward * travel.y) / 1000
        }

        func offset(at t: Double) -> [Double] {
            let d = kilometres(at: t)
            let v = scales.at(t)
            let s = SIMD2(v[0], v[1]) * scale
            let weatherOffset = -d / s.x, shapeOffset = -d / s.y
            return [Self.wrapped(weatherOffset.x + random[0]), Self.wrapped(weatherOffset.y + random[1]),
                    Self.wrapped(shapeOffset.x + random[2]), Self.wrapped(shapeOffset.y + random[3])]
        }

        func evolution(at t: Double) -> [Double] { [Self.wrapped(t * evolutionRate * evolution + random[4])] }

        func cirrusOffset(at t: Double) -> [Double] {
            let d = kilometres(at: t)
            return [Self.wrapped(-d.x * 1.5 / cirrusScale + random[5]), Self.wrapped(-d.y * 1.5 / cirrusScale * 0.25 + random[6])]
        }
    }
    """#
}

/// The model of WelkinCloudDrift here: the constants CloudsDraw takes at time 0 (the view's
/// azimuth, the weather's cloud scales, the layer's seeded offsets) and the weather's travel from
/// WelkinCore, with the same arithmetic.
struct CloudDrift {
    var wind: SIMD2<Double>?
    var weather: Weather?
    var seed: UInt64
    var right: SIMD2<Double>, forward: SIMD2<Double>
    var layer: CloudsLayer
    var random: [Double]
    var evolution: Double
    var cirrusScale: Double

    init?(scene: Scene, layer: CloudsLayer, index: Int) {
        guard let state = Frame(scene: scene, time: 0).sky else { return nil }
        wind = layer.wind
        weather = scene.weather
        seed = scene.seed
        let a = state.viewAzimuth * .pi / 180
        right = SIMD2(cos(a), -sin(a)); forward = SIMD2(sin(a), cos(a))
        self.layer = layer
        let layerSeed = UInt64(Noise.hash32(UInt32(truncatingIfNeeded: scene.seed) ^ Noise.hash32(UInt32(truncatingIfNeeded: layer.seed) &+ UInt32(truncatingIfNeeded: index))))
        var h = Noise.hash32(UInt32(truncatingIfNeeded: layerSeed) ^ 0xc10d)
        random = (0..<7).map { _ in h = Noise.hashNext(h); return Double(Noise.unit(h)) }
        evolution = layer.evolution
        cirrusScale = 24 * layer.scale
    }

    static func wrapped(_ v: Double) -> Double { v.isFinite ? v - v.rounded(.down) : 0 }

    func kilometres(at t: Double) -> SIMD2<Double> {
        let travel = wind.map { $0 * t } ?? WeatherState(weather, time: t, seed: seed).windTravel * CloudsDraw.metresPerWindPoint
        return (right * travel.x + forward * travel.y) / 1000
    }

    func offset(_ t: Double) -> [Double] {
        let d = kilometres(at: t)
        let s = layer.shape(weather: WeatherState(weather, time: t, seed: seed).parameters).scales
        let weatherOffset = -d / s.x, shapeOffset = -d / s.y
        return [Self.wrapped(weatherOffset.x + random[0]), Self.wrapped(weatherOffset.y + random[1]),
                Self.wrapped(shapeOffset.x + random[2]), Self.wrapped(shapeOffset.y + random[3])]
    }

    func evolution(_ t: Double) -> [Double] { [Self.wrapped(t * CloudsDraw.evolutionRate * evolution + random[4])] }

    func cirrusOffset(_ t: Double) -> [Double] {
        let d = kilometres(at: t)
        return [Self.wrapped(-d.x * 1.5 / cirrusScale + random[5]), Self.wrapped(-d.y * 1.5 / cirrusScale * 0.25 + random[6])]
    }

    /// The package's `WelkinCloudDrift(…)` with these constants.
    var swift: String {
        func n(_ v: Double) -> String { SwiftLiteral.number(v) }
        func v(_ p: SIMD2<Double>) -> String { "SIMD2(\(n(p.x)), \(n(p.y)))" }
        let w = weather ?? Weather()
        func windValues(_ p: WeatherPreset) -> String { let v = p.parameters.wind; return "[\(n(v.x)), \(n(v.y))]" }
        let changes = w.schedule.map { "(at: \(n($0.at)), values: \(windValues($0.preset)))" }.joined(separator: ", ")
        // The scales each preset gives the layer, before its `scale`.
        var unit = layer
        unit.scale = 1
        func scales(_ p: WeatherPreset) -> String { let s = unit.shape(weather: p.parameters).scales; return "[\(n(s.x)), \(n(s.y))]" }
        let scaleChanges = w.schedule.map { "(at: \(n($0.at)), values: \(scales($0.preset)))" }.joined(separator: ", ")
        let layerWind: String = wind.map(v) ?? "nil"
        return "WelkinCloudDrift(\n        wind: \(layerWind),\n        weather: WelkinWeatherSchedule(first: \(windValues(w.preset)), changes: [\(changes)], "
            + "transition: \(n(w.transition)), steady: \(weather == nil)),\n        metresPerWindPoint: \(n(CloudsDraw.metresPerWindPoint)), right: \(v(right)), forward: \(v(forward)),\n        "
            + "scales: WelkinWeatherSchedule(first: \(scales(w.preset)), changes: [\(scaleChanges)], transition: \(n(w.transition))), scale: \(n(layer.scale)),\n        "
            + "random: [\(random.map(n).joined(separator: ", "))],\n        evolutionRate: \(n(CloudsDraw.evolutionRate)), "
            + "evolution: \(n(evolution)), cirrusScale: \(n(cirrusScale))\n    )"
    }
}

/// The constants of WelkinSpriteDrift: each sprite's numbers as CloudSpritesDraw draws them from the
/// layer's seed (the same hash sequence), and the weather's cloud speeds. Its model is WelkinCore's
/// own CloudSpritesDraw.
struct SpriteDrift {
    var boxes: (Double) -> [Double]
    var swift: String

    init?(scene: Scene, layer: CloudSpritesLayer, index: Int) {
        let frame = Frame(scene: scene, time: 0)
        let pixelSize = frame.pixelSize, scale = frame.scale
        let seed = UInt64(Noise.hash32(UInt32(truncatingIfNeeded: scene.seed) ^ Noise.hash32(UInt32(truncatingIfNeeded: layer.seed) &+ UInt32(truncatingIfNeeded: index))))
        boxes = { t in
            guard let state = SkyState.of(scene, time: t) else { return [] }
            let d = CloudSpritesDraw(layer, state: state, opacity: 1, seed: seed, pixelSize: pixelSize, scale: scale)
            return d.boxes.prefix(CloudSpritesLayer.maximumCount).flatMap { [Double($0.x), Double($0.y), Double($0.z), Double($0.w)] }
        }
        func n(_ v: Double) -> String { SwiftLiteral.number(v) }
        let width = Double(pixelSize.x), height = Double(pixelSize.y)
        var sprites: [String] = []
        let s = UInt32(truncatingIfNeeded: seed)
        for i in 0..<min(layer.count, CloudSpritesLayer.maximumCount) {
            var h = Noise.hashCell(Int32(i), 0x0c10d, s)
            func next() -> Double { h = Noise.hashNext(h); return Double(Noise.unit(h)) }
            _ = next()   // the kind
            let w = layer.sizeRange.lowerBound + (layer.sizeRange.upperBound - layer.sizeRange.lowerBound) * next()
            let cloudHeight = 0.6 * w
            let y = layer.band.lowerBound + (layer.band.upperBound - layer.band.lowerBound) * next()
            let crossing = layer.crossingTime.lowerBound + (layer.crossingTime.upperBound - layer.crossingTime.lowerBound) * next()
            let phase = next()
            let halfW = w / 2 * scale.x, halfH = cloudHeight / 2 * scale.y
            let span = width + 2 * halfW * 1.3
            sprites.append("WelkinSpriteDrift.Sprite(phase: \(n(phase)), crossing: \(n(crossing)), halfWidth: \(n(halfW)), span: \(n(span)), y: \(n(Double(Float(y * height)))), halfHeight: \(n(halfH)))")
        }
        let w = scene.weather ?? Weather()
        let changes = w.schedule.map { "(at: \(n($0.at)), values: [\(n($0.preset.parameters.cloudSpeed))])" }.joined(separator: ", ")
        swift = "WelkinSpriteDrift(\n        speed: \(layer.speed.map(n) ?? "nil"),\n        weather: WelkinWeatherSchedule(first: [\(n(w.preset.parameters.cloudSpeed))], "
            + "changes: [\(changes)], transition: \(n(w.transition)), steady: \(scene.weather == nil)), clearSpeed: \(n(WeatherPreset.clearSpeedFactor)),\n        sprites: [\n            "
            + sprites.joined(separator: ",\n            ") + ",\n        ]\n    )"
    }
}

/// A scene's physical sky and clouds as the package computes them (WelkinSkyModel's LiveSky), the
/// draws of each time kept (the candidates ask for the same times over and over).
final class LiveSkyValues: @unchecked Sendable {
    let sky: LiveSky
    /// The scene layers LiveSky draws: the sky, and the clouds if any.
    let drawn: Set<Int>
    /// Every uniform name its draws give, over the times the export looks at.
    let names: [String]
    private let lock = NSLock()
    private var uniforms: [Double: [String: UniformNumbers]] = [:]
    private var draws: [Double: LiveSky.Draws] = [:]

    init(sky: LiveSky, drawn: Set<Int>) {
        self.sky = sky
        self.drawn = drawn
        var names = Set<String>()
        // Names that come and go (a coloured ground, bolts, shafts) are met at some time.
        for t in [0.0, 61.25, 600.5, 3600.25] {
            names.formUnion(sky.draws(at: t).uniformNumbers.keys)
        }
        self.names = names.sorted()
    }

    /// The scene's LiveSky, when the package can compute its sky: a first sky layer that is
    /// physical (or a palette with a dated night), at most one clouds layer after it, no camera or one that does not move,
    /// opacities that do not animate.
    static func of(_ scene: Scene) -> LiveSkyValues? {
        let size = Frame(scene: scene, time: 0).pixelSize
        let camera = scene.viewCamera.map { _ in CameraState(scene, time: 0, pixelSize: size) }
        guard [1.0, 600.5, 3600.25].allSatisfy({ t in camera.map { $0 == CameraState(scene, time: t, pixelSize: size) } ?? true }) else { return nil }
        var sky: (index: Int, layer: SkyLayer)?
        var clouds: [(index: Int, layer: CloudsLayer)] = []
        for (i, layer) in scene.layers.enumerated() {
            if case .sky(let s)? = layer.content as? SkyContent, sky == nil { sky = (i, s) }
            if let c = layer.content as? CloudsLayer { clouds.append((i, c)) }
        }
        // A palette sky when it has a dated night (its stars, planets and Moon: what the twins of
        // WelkinLive.swift cannot compute); the twins serve the others.
        guard let sky, sky.layer.model == .physical || MetalLive.hasNightPart(sky.layer), clouds.count <= 1, clouds.allSatisfy({ $0.index > sky.index }),
              ([sky.index] + clouds.map(\.index)).allSatisfy({ scene.layers[$0].opacityAnimation == nil }) else { return nil }
        let frame = Frame(scene: scene, time: 0)
        let c = clouds.first
        let model = LiveSky(sky: sky.layer, skyOpacity: scene.layers[sky.index].opacity, clouds: c?.layer,
                            cloudsOpacity: c.map { scene.layers[$0.index].opacity } ?? 1, cloudsIndex: c?.index ?? 0,
                            weather: scene.weather, seed: scene.seed, pixelSize: frame.pixelSize, scale: frame.scale, linear: false, camera: camera)
        // The package reads it as JSON (a value JSON cannot hold, such as an infinite one, keeps the track).
        guard (try? JSONEncoder().encode(model)) != nil else { return nil }
        return LiveSkyValues(sky: model, drawn: Set([sky.index] + clouds.map(\.index)))
    }

    private func compute(_ t: Double) {
        let d = sky.draws(at: t)
        uniforms[t] = d.uniformNumbers
        draws[t] = d
    }

    /// The textures that are the same at every time (made once): the Milky Way's map, the clouds' noise.
    static let staticTextures: Set<String> = ["u_milkyWay", "u_weather", "u_shape"]
    private var staticTextures: [String: LiveTexture] = [:]

    func uniforms(at t: Double) -> [String: UniformNumbers] {
        lock.lock(); defer { lock.unlock() }
        if uniforms[t] == nil { compute(t) }
        return uniforms[t]!
    }

    /// The texture the package makes for sampler `name` at `t`, if it makes one: made from the
    /// draws kept for `t` when asked (a thousand samples' tables kept as texels were some 0.5 GB).
    func texture(_ name: String, at t: Double) -> LiveTexture? {
        lock.lock(); defer { lock.unlock() }
        if draws[t] == nil { compute(t) }
        guard Self.staticTextures.contains(name) else { return draws[t]!.texture(name) }
        if staticTextures[name] == nil { staticTextures[name] = draws[t]!.texture(name) }
        return staticTextures[name]
    }

    /// The samplers the package can fill itself: those whose every captured texture is, byte for
    /// byte, the model's (32-bit floats).
    /// The sky-view tables, the zodiacal light and the night's star grid change with the sun, the
    /// Moon and the stars; the Milky Way's map and the clouds' noise (CloudNoise: some 90 ms once) do not.
    static let textureNames = ["u_skyView", "u_moonView", "u_zodiacal", "u_nightCells", "u_nightEntries", "u_milkyWay", "u_weather", "u_shape"]
}
