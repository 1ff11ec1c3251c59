// MetalExport: the layers that need a shader (the sky, cloud cover and sprites, volumetric clouds,
// user GLSL and Shadertoy shaders) as Metal made from the programs Welkin's GL path draws them with.
//
// The GL path is asked what it draws (GLRenderer.capture): for each such layer, its full-screen
// draws, each with its program's preprocessed sources, every uniform's value and every texture a
// sampler reads. Each program goes through ShaderPipeline (GLSL → SPIR-V, spirv-val → MSL). The
// uniforms that follow the scene clock and have a Swift twin (MetalLive: time, clouds' drift, a
// palette sky's sun and colours) are computed per frame by the package; the rest, at `rate` samples
// a second over `duration` seconds of scene time, are laid out as the Metal functions take them
// (MetalLayout) and written as a track the package plays (MetalRuntime). docs/code-export.md says
// what is exact and what is not.

import Foundation
import WelkinAtmosphere
import WelkinCore
import WelkinGL

public enum MetalExport {
    /// How a single-file export reports a layer only `--package` draws (the sky, clouds and shader layers).
    public static let onlyWithPackage = "exported only with --package"
    /// What `--package` does with it instead.
    static let drawnInPackage = "--package draws the layer with Metal compiled from the GLSL Welkin draws it with"

    /// How much scene time the uniform tracks hold.
    public struct Options: Sendable {
        /// Seconds of scene time from 0; the package holds the last sample after it.
        public var duration: Double = 10
        /// Samples a second (each held until the next).
        public var rate: Double = 30
        /// The most bytes of texture data one layer's track holds: texture samples are thinned to fit.
        public var textureBudget = 24 << 20

        public init(duration: Double = 10, rate: Double = 30) { self.duration = duration; self.rate = rate }

        /// `--duration`'s default for `scene`: 10 s, or until its weather's last cross-fade has ended
        /// (and a second on), so what the track holds after is the weather the live uniforms run on
        /// under; at most 120 s.
        public static func defaultDuration(for scene: Scene) -> Double {
            guard let w = scene.weather, let last = w.schedule.map(\.at).filter(\.isFinite).max() else { return 10 }
            return min(max(10, (last + max(w.transition, 0) + 1).rounded(.up)), 120)
        }

        /// The most samples a track holds (duration × rate), a documented limit checked before any work.
        public static let maximumSamples = 36_000
        public var sampleCount: Int { max(1, Int((duration * rate).rounded(.down)) + 1) }
    }

    /// One draw of a layer, compiled.
    public struct Pass: Sendable {
        public var vertexGLSL: String
        public var fragmentGLSL: String
        public var vertex: ShaderPipeline.Compiled
        public var fragment: ShaderPipeline.Compiled
        var vertexLayout: MetalLayout.Function
        var fragmentLayout: MetalLayout.Function
    }

    /// A layer as Metal: its passes (the last draws into the view), its `.metal` source and its track.
    public struct Layer: @unchecked Sendable {
        /// The name its files and functions carry (`WelkinLayer0`).
        public var name: String
        /// The scene layers it draws (a run of sky layers is one).
        public var sceneLayers: [Int]
        public var passes: [Pass]
        /// The `.metal` files, by file name: one per pass and stage (each a translation unit of its own,
        /// so the structs SPIRV-Cross declares in each never meet).
        public var metal: [(name: String, source: String)]
        /// The track's manifest (JSON) and data.
        public var manifest: Data
        public var data: Data
        /// The scene's pixel size: the view draws at that size and scales to its frame.
        public var pixelSize: SIMD2<Int>
        /// The uniforms the package computes per frame (MetalLive), in the order its `values(at:)` gives them.
        var live: [LiveUniform] = []
        /// The samplers whose textures the package makes each frame from its copy of WelkinSkyModel.
        var liveTextures: [String] = []
        /// The sky the package computes them from (its copy of WelkinSkyModel), when it does.
        var liveSky: LiveSky?
        /// Whether the track's recorded values change over its samples (else it is one sample).
        public var recordedVaries: Bool = false
        /// The GL names of the live uniforms.
        public var liveNames: [String] { live.map(\.name) }
        /// The colour (sRGB, 0…1) the view shows when it cannot draw (PackageExport: the scene's
        /// mean colour at 0 s).
        public var fallback: SIMD3<Double>?
    }

    /// Compiles the captured programs of every shader layer and records their tracks.
    /// `capture(t)` draws the scene at time t with GLRenderer.capture and returns the draws by
    /// frame layer position, with the Frame it drew.
    public static func layers(scene: Scene, options: Options,
                              capture: (Double) throws -> (draws: [Int: [GLCapture.Draw]], frame: Frame)) throws -> [Layer] {
        let count = options.sampleCount
        guard count <= Options.maximumSamples else {
            throw ShaderPipeline.Failure(description: "--duration × --rate asks for \(count) samples; at most \(Options.maximumSamples)")
        }
        var samples: [[Int: [GLCapture.Draw]]] = []
        /// Each sample's sky-view tables by frame layer position and sampler (the package makes them).
        var tables: [[Int: [String: SkyViewTable]]] = []
        var first: (sources: [Int], pixelSize: SIMD2<Int>)?
        var interning = TextureInterning()
        for i in 0..<count {
            let c = try capture(Double(i) / options.rate)
            if first == nil { first = (c.frame.sceneLayerIndices, c.frame.pixelSize) }
            samples.append(interning.shared(c.draws))
            tables.append(skyTables(c.frame))
        }
        guard let first, let initial = samples.first else { return [] }
        // Probe times past the track, where a live uniform's model must hold too (MetalLive).
        var probes: [(time: Double, draws: [Int: [GLCapture.Draw]], sources: [Int])] = []
        for t in MetalLive.probeTimes(scene: scene, after: Double(count - 1) / options.rate) {
            let c = try capture(t)
            probes.append((t, c.draws, c.frame.sceneLayerIndices))
        }
        // The scene's physical sky and clouds as the package's copy of WelkinSkyModel computes them.
        let model = LiveSkyValues.of(scene)
        var layers: [Layer] = []
        for position in initial.keys.sorted() {
            let draws = initial[position]!
            let start = first.sources[position]
            guard start >= 0 else { continue }
            let next = first.sources.dropFirst(position + 1).first { $0 >= 0 } ?? scene.layers.count
            let name = "WelkinLayer\(start)"
            var passes: [Pass] = []
            for (i, draw) in draws.enumerated() {
                let vertex = try ShaderPipeline.compile(draw.vertex.text, stage: .vertex, entryPoint: "\(name)Vertex\(i)")
                let fragment = try ShaderPipeline.compile(draw.fragment.text, stage: .fragment, entryPoint: "\(name)Fragment\(i)")
                passes.append(Pass(vertexGLSL: draw.vertex.text, fragmentGLSL: draw.fragment.text, vertex: vertex, fragment: fragment,
                                   vertexLayout: try MetalLayout.Function(vertex), fragmentLayout: try MetalLayout.Function(fragment)))
            }
            let sceneLayers = Array(start..<max(next, start + 1))
            // The layer's draws at each probe, found by its first scene layer (frame positions may move).
            let probed = probes.map { p in (p.time, p.sources.firstIndex(of: start).flatMap { p.draws[$0] } ?? []) }
            let captures = samples.enumerated().map { (Double($0.offset) / options.rate, $0.element[position] ?? []) } + probed
            let last = (samples.last?[position] ?? []).map(\.fragment.text)
            let programsChange = probed.contains { $0.1.map(\.fragment.text) != last }
            let live = MetalLive.decide(MetalLive.candidates(scene: scene, sceneLayers: sceneLayers, programsChange: programsChange, model: model),
                                        captures: captures)
            let liveTextures = MetalLive.decideTextures(model: model, sceneLayers: sceneLayers, live: live, captures: captures)
            let track = try MetalTrack.build(passes: passes, draws: samples.map { $0[position] ?? [] }, tables: tables.map { $0[position] ?? [:] },
                                             live: live.map(\.name), liveTextures: liveTextures, options: options, layer: start)
            let metal = track.passes.flatMap { [($0.vertex.entryPoint + ".metal", $0.vertex.msl), ($0.fragment.entryPoint + ".metal", $0.fragment.msl)] }
            layers.append(Layer(name: name, sceneLayers: sceneLayers, passes: track.passes, metal: metal,
                                manifest: track.manifest, data: track.data, pixelSize: first.pixelSize, live: live, liveTextures: liveTextures,
                                liveSky: live.contains { $0.swift.hasPrefix("welkinSky.") } ? model?.sky : nil, recordedVaries: track.varies))
        }
        return layers
    }

    /// Captured textures whose bytes equal the previous sample's for the same draw and sampler take
    /// that sample's storage: the samples then hold each distinct texture once (the default scene's
    /// 1,021 samples held the Milky Way's map, the clouds' noise and a sky-view table each time:
    /// the export's peak memory was 2.1 GB).
    struct TextureInterning {
        private var previous: [String: GLCapture.Texture] = [:]

        mutating func shared(_ draws: [Int: [GLCapture.Draw]]) -> [Int: [GLCapture.Draw]] {
            var out = draws
            for (position, list) in draws {
                for (i, d) in list.enumerated() {
                    for (name, input) in d.samplers {
                        guard case .texture(var texture) = input else { continue }
                        let key = "\(position) \(i) \(name)"
                        if let p = previous[key], p.format == texture.format, p.size == texture.size, MetalLive.sameBytes(p.bytes, texture.bytes) {
                            texture.bytes = p.bytes
                            out[position]![i].samplers[name] = .texture(texture)
                        }
                        previous[key] = texture
                    }
                }
            }
            return out
        }
    }

    /// The sky-view tables a frame's physical skies read, by frame layer position and the sampler
    /// that reads each (the Sun's `u_skyView`, the Moon's `u_moonView` while it lights the air); none
    /// for a run with two physical skies (which sampler is whose would be ambiguous).
    static func skyTables(_ frame: Frame) -> [Int: [String: SkyViewTable]] {
        var out: [Int: [String: SkyViewTable]] = [:]
        for (position, layer) in frame.layers.enumerated() {
            guard let sky = layer as? SkyDraw else { continue }
            let physical = sky.parts.compactMap { part -> PhysicalSkyDraw? in if case .physical(let p) = part { return p } else { return nil } }
            guard physical.count == 1, let p = physical.first else { continue }
            var named = ["u_skyView": p.table]
            if let moon = p.moonTable, p.moonSkyScale > 0 { named["u_moonView"] = moon }
            out[position] = named
        }
        return out
    }
}
