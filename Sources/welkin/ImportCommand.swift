// `welkin import`: a Particle Designer / cocos2d .plist or a Starling .pex effect as a scene, or a
// Shadertoy shader's JSON as a scene with a multipass shader layer.

import Foundation
import WelkinCore
import WelkinImage
import WelkinImport

extension Commands {
    static let importEffect = Command(
        name: "import", summary: "Turn a Particle Designer .plist, Starling .pex or Shadertoy .json into a scene.",
        usage: "welkin import EFFECT.plist|EFFECT.pex|SHADER.json -o SCENE.json [--size WxH] [--keep-position]",
        discussion: """
        A Shadertoy shader's JSON (the site's API answer {"Shader": …} or its export of one shader) becomes
        a scene with one shader layer and a file per pass beside it: SCENE-image.frag, SCENE-common.glsl,
        SCENE-buffer-a.frag… (buffers matched by their output ids; docs/shaders.md, "Importing from
        Shadertoy"). Media textures not beside the JSON become generated noise (a warning each); sound,
        music, microphone, video, webcam inputs and Cube A are refused naming the pass. The scene is
        800x450 unless --size says otherwise.

        The scene has one emitter layer with one cell carrying every value of the effect (docs/particles.md,
        "Importing effects", maps each key). The effect's texture (embedded textureImageData, plain or
        gzip-compressed PNG, or the PNG named by textureFileName beside the effect) is written as a PNG
        next to the scene and used as the sprite; with none, or a textureFileName that does not exist,
        the particles are soft dots (with a warning). The layer's maxParticles is raised where the
        birth rate × the longest lifespan needs more. The emitter sits at the scene's centre unless
        --keep-position places it at the file's sourcePosition (a .plist's y axis points up).
        Values Welkin cannot reproduce are named on stderr (EFFECT: key: sentence). Files are written
        to temporary names and renamed into place, the scene last.
        """,
        options: [Options.Import.output, Options.Import.size, Options.Import.keepPosition],
        run: { args in
            let command = named("import")!
            guard args.positionals.count == 1 else {
                throw UsageError(message: args.positionals.isEmpty ? "expected an effect file (.plist or .pex)" : "expected one effect file, got \(args.positionals.count)",
                                 command: command)
            }
            guard let out = try args[Options.Import.output] else { throw UsageError(message: "expected -o SCENE.json", command: command) }
            let path = args.positionals[0]
            var options = ParticleImport.Options()
            if let size = try args[Options.Import.size] { options.size = size }
            options.keepPosition = try args[Options.Import.keepPosition]

            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(message: "\(path): cannot read the file")
            }
            guard let text = String(data: data, encoding: .utf8) else { throw Failure(message: "\(path): not UTF-8 text") }
            let outURL = URL(fileURLWithPath: out)
            let name = outURL.deletingPathExtension().lastPathComponent
            let outDirectory = outURL.deletingLastPathComponent().path
            if path.lowercased().hasSuffix(".json") || ShadertoyImport.looksLikeShadertoy(text) {
                guard !(try args[Options.Import.keepPosition]) else {
                    throw UsageError(message: "--keep-position is for particle effects, not Shadertoy shaders", command: command)
                }
                var shaderOptions = ShadertoyImport.Options()
                if let size = try args[Options.Import.size] { shaderOptions.size = size }
                let result: ShadertoyImport.Result
                do { result = try ShadertoyImport.convert(text, path: path, name: name, options: shaderOptions) } catch let e as ShadertoyImport.Failure {
                    throw Failure(message: e.description)
                }
                for warning in result.warnings { printError("\(path): \(warning)") }
                // The pass files first (the scene names them), then the scene, each renamed into place;
                // the scene is checked by the scene loader before it is written.
                var written: [String] = []
                for f in result.files {
                    let filePath = (outDirectory as NSString).appendingPathComponent(f.fileName)
                    try writeAtomically(Array(f.text.utf8), to: filePath)
                    written.append(filePath)
                }
                do {
                    _ = try SceneLoader.decode(result.scene, file: out, directory: outDirectory)
                } catch {
                    for w in written { try? FileManager.default.removeItem(atPath: w) }
                    throw Failure(message: "\(path): the shader makes no valid scene: \(error)")
                }
                try writeAtomically(Array(result.scene.utf8), to: out)
                print("wrote \(out) and " + result.files.map(\.fileName).joined(separator: ", "))
                return 0
            }
            let result: ParticleImport.Result
            let effect = try EffectFile.parse(text, path: path)
            result = try ParticleImport.convert(effect, effectDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                name: name, options: options)
            for warning in result.warnings { printError("\(path): \(warning)") }

            // The texture first (the scene refers to it), then the scene, each renamed into place;
            // the scene is checked by the scene loader before it is written.
            var wroteTexture: String?
            if let texture = result.texture {
                let texturePath = (outDirectory as NSString).appendingPathComponent(texture.fileName)
                if FileManager.default.contents(atPath: texturePath).map({ [UInt8]($0) }) != texture.png {
                    try writeAtomically(texture.png, to: texturePath)
                    wroteTexture = texturePath
                }
            }
            do {
                _ = try SceneLoader.decode(result.scene, file: out, directory: outDirectory)
            } catch {
                if let wroteTexture { try? FileManager.default.removeItem(atPath: wroteTexture) }
                throw Failure(message: "\(path): the effect's values make no valid scene: \(error)")
            }
            try writeAtomically(result.scene, to: out)
            print("wrote \(out)" + (result.texture.map { " and \($0.fileName)" } ?? ""))
            return 0
        })

    /// Writes `bytes` through a temporary file renamed into place (AtomicFile): a failure says
    /// `cannot write PATH: REASON` and leaves nothing behind.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try AtomicFile.write(bytes, to: path)
    }
}

extension Options {
    /// `welkin import`'s own options.
    enum Import {
        static let output = Options.output.with(value: "SCENE.json", help: "The scene file to write (required).")
        static let size = Options.size.with(help: "The scene's size in points (default 512x512).")
        static let keepPosition = Flag("--keep-position", help: "Place the emitter at the effect's sourcePosition instead of the centre.")
    }
}
