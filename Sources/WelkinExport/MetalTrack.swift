// MetalTrack: a Metal layer's uniform and texture values over scene time, as the package plays them.
//
// For each sample (time i / rate) the track lists the layer's draws: which program (a sky may
// switch programs, e.g. when the night sky appears), the bytes of each of its buffers as its Metal
// function takes them (MetalLayout), and each texture (data written once per distinct content, or
// an earlier draw's target). Identical buffers and textures are stored once. Textures over the
// layer's budget are thinned: every k-th sample's content is kept and held until the next.
// A physical sky's sky-view tables are not data: each is its recipe (SkyViewTable.Recipe, a few
// numbers), made on the device by the package's copy of WelkinAtmosphere, so every sample keeps
// its own exact table at no cost in size. A live sky's textures (MetalLive.decideTextures: the
// sky-view table, the zodiacal light, the clouds' noise) are one content each, marked `live`, with
// no bytes: the package makes them each frame.

import Foundation
import WelkinAtmosphere
import WelkinGL

struct MetalTrack {
    struct Manifest: Codable {
        var rate: Double
        var samples: Int
        var width: Int
        var height: Int
        var programs: [Program]
        var frames: [[Draw]]
        var contents: [Content]
        /// Texture contents kept every `textureStep` samples (1: all).
        var textureStep: Int
        /// Where the package writes each live uniform (MetalLive) before a draw.
        var live: [Live]
        /// The atmospheres the contents' table recipes name by index (none: no tables to make).
        var atmospheres: [AtmosphereCoefficients]? = nil
        /// Where each program takes ShaderPipeline.drawScaleUniform (two floats, `value` unused):
        /// the package writes the drawable's pixel in scene pixels less one there for a draw into
        /// the view, 0 for a draw into a target of its own (recorded as 0).
        var drawScale: [Live] = []

        /// In the file, a draw's program, target, size and texture inputs (what samples share) are
        /// listed once, in `shapes` (draws without buffers, each input that reads a content with
        /// content −1), and each sample's draw is [shape, buffer offsets…, contents…]: its program's
        /// buffers' offsets, then the content of each such input. A 34 s track at 30 Hz repeated the
        /// same 140-byte draw description a sample (about 300 KB a layer).
        enum CodingKeys: String, CodingKey {
            case rate, samples, width, height, programs, shapes, frames, contents, textureStep, live, atmospheres, drawScale
        }

        init(rate: Double, samples: Int, width: Int, height: Int, programs: [Program], frames: [[Draw]], contents: [Content],
             textureStep: Int, live: [Live], atmospheres: [AtmosphereCoefficients]? = nil, drawScale: [Live] = []) {
            self.rate = rate; self.samples = samples; self.width = width; self.height = height; self.programs = programs
            self.frames = frames; self.contents = contents; self.textureStep = textureStep; self.live = live; self.atmospheres = atmospheres
            self.drawScale = drawScale
        }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            rate = try c.decode(Double.self, forKey: .rate)
            samples = try c.decode(Int.self, forKey: .samples)
            width = try c.decode(Int.self, forKey: .width)
            height = try c.decode(Int.self, forKey: .height)
            let programs = try c.decode([Program].self, forKey: .programs)
            self.programs = programs
            contents = try c.decode([Content].self, forKey: .contents)
            textureStep = try c.decode(Int.self, forKey: .textureStep)
            live = try c.decode([Live].self, forKey: .live)
            atmospheres = try c.decodeIfPresent([AtmosphereCoefficients].self, forKey: .atmospheres)
            drawScale = try c.decodeIfPresent([Live].self, forKey: .drawScale) ?? []
            let shapes = try c.decode([Draw].self, forKey: .shapes)
            frames = try c.decode([[[Int]]].self, forKey: .frames).map { sample in
                try sample.map { entry in
                    guard let first = entry.first, shapes.indices.contains(first) else {
                        throw DecodingError.dataCorruptedError(forKey: .frames, in: c, debugDescription: "a draw names no shape")
                    }
                    let s = shapes[first]
                    let count = programs.indices.contains(s.program) ? programs[s.program].buffers.count : 0
                    var rest = entry.dropFirst(1 + count)
                    let textures = try s.textures.map { input -> TextureInput in
                        guard input.content != nil else { return input }
                        guard let content = rest.popFirst() else {
                            throw DecodingError.dataCorruptedError(forKey: .frames, in: c, debugDescription: "a draw lacks a texture's content")
                        }
                        var t = input
                        t.content = content
                        return t
                    }
                    return Draw(program: s.program, target: s.target, width: s.width, height: s.height,
                                buffers: Array(entry.dropFirst().prefix(count)), textures: textures)
                }
            }
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(rate, forKey: .rate)
            try c.encode(samples, forKey: .samples)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(programs, forKey: .programs)
            try c.encode(contents, forKey: .contents)
            try c.encode(textureStep, forKey: .textureStep)
            try c.encode(live, forKey: .live)
            try c.encodeIfPresent(atmospheres, forKey: .atmospheres)
            try c.encode(drawScale, forKey: .drawScale)
            var shapes: [Draw] = []
            var index: [Draw: Int] = [:]
            let compact: [[[Int]]] = frames.map { sample in
                sample.map { d in
                    let inputs = d.textures.map { t -> TextureInput in
                        var input = t
                        if input.content != nil { input.content = -1 }
                        return input
                    }
                    let shape = Draw(program: d.program, target: d.target, width: d.width, height: d.height, buffers: [], textures: inputs)
                    if index[shape] == nil { index[shape] = shapes.count; shapes.append(shape) }
                    return [index[shape]!] + d.buffers + d.textures.compactMap(\.content)
                }
            }
            try c.encode(shapes, forKey: .shapes)
            try c.encode(compact, forKey: .frames)
        }
    }

    /// A sky-view table the package makes, as SkyViewTable.Recipe of the two shapes Welkin draws
    /// with: one atmosphere's table blended for the sun's elevation (`weight` nil), or two
    /// atmospheres' tables at the same elevation mixed `weight` of the way to the second (a weather
    /// fade). Atmospheres by index into the manifest's `atmospheres`.
    struct TableRecipe: Codable, Hashable {
        var atmospheres: [Int]
        var altitude: Double
        var sunElevation: Double
        var weight: Double?
    }

    /// A live uniform's place: the program, its buffer (position in `Program.buffers`), the byte
    /// offset there, and which of the layer's live values goes in it, as `components` words of `type`
    /// ("float", "int" or "uint") for each of up to `count` elements `stride` bytes apart (an
    /// array's: as many as the value holds). Its recorded bytes there are zero.
    struct Live: Codable, Equatable {
        var program: Int
        var buffer: Int
        var offset: Int
        var components: Int
        var count: Int
        var stride: Int
        var type: String
        var value: Int
    }

    struct Program: Codable {
        var vertexFunction: String
        var fragmentFunction: String
        var buffers: [Binding]
        var textures: [Binding]
    }

    struct Binding: Codable {
        /// "vertex" or "fragment".
        var stage: String
        var index: Int
        var size: Int?
        var sampler: Int?
    }

    struct Draw: Codable, Hashable {
        var program: Int
        /// −1: the view; else the index of an intermediate texture (this draw's position).
        var target: Int
        var width: Int
        var height: Int
        /// Byte offset of each of the program's buffers in the data.
        var buffers: [Int]
        var textures: [TextureInput]
    }

    struct TextureInput: Codable, Hashable {
        /// An earlier draw's target, or a content of the data.
        var draw: Int?
        var content: Int?
        var linear: Bool
        var repeats: Bool
        /// true: rows are clamped where columns repeat (the Milky Way's map); nil otherwise.
        var clampsRows: Bool? = nil
    }

    struct Content: Codable {
        var format: String
        var width: Int
        var height: Int
        var depth: Int
        var offset: Int
        var length: Int
        /// A sky-view table the package makes (`SkyViewTable.make`): no bytes in the data.
        var table: TableRecipe?
        /// A texture the package makes each frame from its copy of WelkinSkyModel (the sampler's
        /// name: `u_skyView`, `u_zodiacal`): no bytes in the data.
        var live: String? = nil
    }

    /// Buffers up to this size are set as bytes by the package (Metal copies up to 4 KB).
    static let bytesLimit = 4096

    var manifest: Data
    var data: Data
    /// Every program the track draws with, compiled (the first sample's passes first).
    var passes: [MetalExport.Pass]
    /// Whether the recorded values change over the samples (when they do not, one sample is kept).
    var varies: Bool

    /// The track of `samples`, its `live` uniforms left to the package (recorded as zeros, so
    /// samples that differ only in them are stored once). `tables[s][name]`: the table the
    /// sampler `name` reads at sample s, as a recipe, where the frame knows one (a physical sky's);
    /// used where the texture GL read back holds exactly that table's texels.
    static func build(passes: [MetalExport.Pass], draws samples: [[GLCapture.Draw]], tables: [[String: SkyViewTable]] = [], live: [String] = [],
                      liveTextures: [String] = [], options: MetalExport.Options, layer: Int) throws -> MetalTrack {
        var data = Data()
        var offsets: [Data: Int] = [:]
        func store(_ bytes: Data) -> Int {
            if let o = offsets[bytes] { return o }
            // A buffer the package sets as bytes (≤ 4 KB: MetalRuntime) starts on a 16-byte boundary;
            // a larger one, bound at its offset, and a texture on a 256-byte one (a constant buffer's
            // offset must be: macOS, Intel GPUs).
            let alignment = bytes.count <= MetalTrack.bytesLimit ? 16 : 256
            while data.count % alignment != 0 { data.append(0) }
            offsets[bytes] = data.count
            data.append(bytes)
            return offsets[bytes]!
        }
        // Programs: the first sample's passes, and any other a later sample draws with.
        var compiled: [(vertex: String, fragment: String, pass: MetalExport.Pass)] = passes.map { ($0.vertexGLSL, $0.fragmentGLSL, $0) }
        func program(_ d: GLCapture.Draw, position: Int) throws -> Int {
            if let i = compiled.firstIndex(where: { $0.vertex == d.vertex.text && $0.fragment == d.fragment.text }) { return i }
            let name = "WelkinLayer\(layer)Program\(compiled.count)"
            let v = try ShaderPipeline.compile(d.vertex.text, stage: .vertex, entryPoint: name + "Vertex")
            let f = try ShaderPipeline.compile(d.fragment.text, stage: .fragment, entryPoint: name + "Fragment")
            compiled.append((d.vertex.text, d.fragment.text,
                             MetalExport.Pass(vertexGLSL: d.vertex.text, fragmentGLSL: d.fragment.text, vertex: v, fragment: f,
                                              vertexLayout: try MetalLayout.Function(v), fragmentLayout: try MetalLayout.Function(f))))
            return compiled.count - 1
        }
        var recipes: [TableRecipe: Int] = [:]
        var atmospheres: [AtmosphereCoefficients] = []
        func compact(_ recipe: SkyViewTable.Recipe) -> TableRecipe? {
            func index(_ c: AtmosphereCoefficients) -> Int {
                if let i = atmospheres.firstIndex(of: c) { return i }
                atmospheres.append(c)
                return atmospheres.count - 1
            }
            switch recipe {
            case .blended(let k):
                return TableRecipe(atmospheres: [index(k.coefficients)], altitude: k.altitude, sunElevation: k.sunElevation, weight: nil)
            case .mixed(.blended(let a), .blended(let b), let weight) where a.altitude == b.altitude && a.sunElevation == b.sunElevation:
                return TableRecipe(atmospheres: [index(a.coefficients), index(b.coefficients)], altitude: a.altitude, sunElevation: a.sunElevation, weight: weight)
            default:
                return nil
            }
        }
        // The tables made on the device: a sampler's texture that is, byte for byte, its table.
        var checked: [String: SkyViewTable.Recipe?] = [:]
        func recipe(_ s: Int, _ name: String, _ texture: GLCapture.Texture) -> SkyViewTable.Recipe? {
            guard s < tables.count, let table = tables[s][name], let recipe = table.recipe, texture.format == .rgba32Float,
                  texture.size == SIMD3(SkyViewTable.width, 2 * SkyViewTable.height, 1) else { return nil }
            if let known = checked["\(s) \(name)"] { return known }
            let same = MetalLive.sameBytes(table.texels, texture.bytes)
            let kept = same && compact(recipe) != nil ? recipe : nil
            checked["\(s) \(name)"] = kept
            return kept
        }
        // Texture budget: distinct recorded texture bytes over all samples decide the step.
        var distinct: Set<Data> = []
        var total = 0
        for (s, sample) in samples.enumerated() {
            for d in sample {
                for (name, input) in d.samplers where !liveTextures.contains(name) {
                    guard case .texture(let t) = input, recipe(s, name, t) == nil else { continue }
                    let bytes = Data(t.bytes)
                    if distinct.insert(bytes).inserted { total += bytes.count }
                }
            }
        }
        let step = max(1, (total + options.textureBudget - 1) / max(options.textureBudget, 1))
        var contents: [Content] = []
        var contentIndex: [Int: Int] = [:]   // data offset → content
        var frames: [[Draw]] = []
        var held: [String: TextureInput] = [:]
        var liveContents: [String: Int] = [:]
        for (s, sample) in samples.enumerated() {
            var frame: [Draw] = []
            for (position, d) in sample.enumerated() {
                let p = try program(d, position: position)
                let pass = compiled[p].pass
                let uniforms = Dictionary(d.uniforms.filter { !live.contains($0.name) }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
                var buffers: [Int] = []
                for b in pass.vertexLayout.buffers { buffers.append(store(Data(MetalLayout.pack(b, uniforms)))) }
                for b in pass.fragmentLayout.buffers { buffers.append(store(Data(MetalLayout.pack(b, uniforms)))) }
                var textures: [TextureInput] = []
                for (stage, t) in pass.vertexLayout.textures.map({ ("vertex", $0) }) + pass.fragmentLayout.textures.map({ ("fragment", $0) }) {
                    let key = "\(position) \(stage) \(t.name)"
                    switch d.samplers[t.name] {
                    case .draw(let earlier)?:
                        textures.append(TextureInput(draw: earlier, content: nil, linear: true, repeats: false))
                    case .texture(let texture)? where liveTextures.contains(t.name):
                        // Made by the package each frame: one content, no data.
                        if liveContents[t.name] == nil {
                            liveContents[t.name] = contents.count
                            contents.append(Content(format: texture.format.rawValue, width: texture.size.x, height: texture.size.y,
                                                    depth: texture.size.z, offset: 0, length: 0, live: t.name))
                        }
                        textures.append(TextureInput(draw: nil, content: liveContents[t.name], linear: texture.linear, repeats: texture.repeats,
                                                     clampsRows: texture.repeats && !texture.repeatsRows ? true : nil))
                    case .texture(let texture)? where recipe(s, t.name, texture) != nil:
                        // Every sample's own table: a recipe costs no data.
                        let made = compact(recipe(s, t.name, texture)!)!
                        if recipes[made] == nil {
                            recipes[made] = contents.count
                            contents.append(Content(format: texture.format.rawValue, width: texture.size.x, height: texture.size.y,
                                                    depth: texture.size.z, offset: 0, length: 0, table: made))
                        }
                        let input = TextureInput(draw: nil, content: recipes[made], linear: texture.linear, repeats: texture.repeats)
                        held[key] = input
                        textures.append(input)
                    case .texture(let texture)?:
                        if s % step != 0, let h = held[key] { textures.append(h); continue }
                        let offset = store(Data(texture.bytes))
                        if contentIndex[offset] == nil {
                            contentIndex[offset] = contents.count
                            contents.append(Content(format: texture.format.rawValue, width: texture.size.x, height: texture.size.y,
                                                    depth: texture.size.z, offset: offset, length: texture.bytes.count))
                        }
                        let input = TextureInput(draw: nil, content: contentIndex[offset], linear: texture.linear, repeats: texture.repeats,
                                                 clampsRows: texture.repeats && !texture.repeatsRows ? true : nil)
                        held[key] = input
                        textures.append(input)
                    case nil:
                        throw ShaderPipeline.Failure(description: "layers[\(layer)]: the GL program binds nothing to \(t.name)")
                    }
                }
                frame.append(Draw(program: p, target: position == sample.count - 1 ? -1 : position,
                                  width: d.targetSize.x, height: d.targetSize.y, buffers: buffers, textures: textures))
            }
            frames.append(frame)
        }
        let programs = compiled.map { c in
            Program(vertexFunction: c.pass.vertex.entryPoint, fragmentFunction: c.pass.fragment.entryPoint,
                    buffers: c.pass.vertexLayout.buffers.map { Binding(stage: "vertex", index: $0.index, size: $0.size) }
                        + c.pass.fragmentLayout.buffers.map { Binding(stage: "fragment", index: $0.index, size: $0.size) },
                    textures: c.pass.vertexLayout.textures.map { Binding(stage: "vertex", index: $0.index, sampler: $0.sampler) }
                        + c.pass.fragmentLayout.textures.map { Binding(stage: "fragment", index: $0.index, sampler: $0.sampler) })
        }
        // Each live uniform's fields in every program's buffers.
        var types: [String: String] = [:]
        for sample in samples { for d in sample { for u in d.uniforms where live.contains(u.name) { types[u.name] = u.type } } }
        var places: [Live] = [], scales: [Live] = []
        for (p, c) in compiled.enumerated() {
            for (b, buffer) in (c.pass.vertexLayout.buffers + c.pass.fragmentLayout.buffers).enumerated() {
                for field in buffer.fields {
                    if field.name == ShaderPipeline.drawScaleUniform, b >= c.pass.vertexLayout.buffers.count {
                        scales.append(Live(program: p, buffer: b, offset: field.offset, components: field.components, count: 1,
                                           stride: field.stride, type: "float", value: 0))
                        continue
                    }
                    guard let value = live.firstIndex(of: field.name), let type = types[field.name] else { continue }
                    let scalar = type.hasPrefix("i") ? "int" : type.hasPrefix("u") ? "uint" : "float"
                    places.append(Live(program: p, buffer: b, offset: field.offset, components: field.components, count: field.count,
                                       stride: field.stride, type: scalar, value: value))
                }
            }
        }
        let varies = frames.contains { $0 != frames[0] }
        if !varies { frames = Array(frames.prefix(1)) }
        let size = samples.first?.last?.targetSize ?? .zero
        let manifest = Manifest(rate: options.rate, samples: frames.count, width: size.x, height: size.y,
                                programs: programs, frames: frames, contents: contents, textureStep: step, live: places,
                                atmospheres: atmospheres.isEmpty ? nil : atmospheres, drawScale: scales)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return MetalTrack(manifest: try encoder.encode(manifest), data: data, passes: compiled.map(\.pass), varies: varies)
    }
}
