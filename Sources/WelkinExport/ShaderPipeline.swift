// ShaderPipeline: GLSL → SPIR-V → Metal Shading Language through Khronos' and SPIRV-Cross's programs.
//
// The GLSL is the very text WelkinGL compiles (ShaderSource: includes inlined, the ShaderConstants
// prelude and the pass's defines after #version). `compilerText` makes the one change the SPIR-V
// compiler needs (docs/code-export.md, PLATFORM-NOTES): `#version 330 core` becomes `#version 410
// core`, the first version glslang accepts for OpenGL SPIR-V; includes are already resolved, so no
// include extension is needed. Then `glslangValidator -G --auto-map-locations` (OpenGL SPIR-V, no
// `--auto-map-bindings`: Mesa refuses the GLSL made back from bindings on plain uniforms),
// `spirv-val`, and `spirv-cross --msl` for Metal, `--version 330 --no-es` for the round trip back
// to GLSL that the tests draw with Welkin's GL path.

import Foundation

/// Runs glslangValidator, spirv-val and spirv-cross on one shader stage.
public enum ShaderPipeline {
    public enum Stage: String, Sendable {
        case vertex = "vert", fragment = "frag"
    }

    /// A stage compiled to SPIR-V and translated.
    public struct Compiled: Sendable {
        public var spirv: [UInt8]
        /// The Metal source, its entry point renamed to `entryPoint`.
        public var msl: String
        public var entryPoint: String
        /// `spirv-cross --reflect`'s JSON: the struct types (for the buffers' layout) and the textures.
        public var reflection: String
    }

    /// A program the pipeline needs is missing or failed.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The programs, each with the Debian package that provides it.
    static let tools = [("glslangValidator", "glslang-tools"), ("spirv-val", "spirv-tools"), ("spirv-cross", "spirv-cross")]

    /// The one place where the text for the SPIR-V compiler differs from the text GL compiles.
    public static func compilerText(_ glsl: String) -> String {
        var lines = glsl.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let v = lines.firstIndex(where: { $0.drop(while: \.isWhitespace).hasPrefix("#version") }) {
            lines[v] = "#version 410 core"
        }
        return lines.joined(separator: "\n")
    }

    /// The uniform through which the package's Metal draws at its drawable's size: the drawable's
    /// pixel in scene pixels, less one, on each axis (0 in GL and for a draw into a target of its own).
    public static let drawScaleUniform = "u_drawScaleDelta"

    /// A fragment stage that takes its pixel position in the scene's pixels when it draws into a
    /// drawable of another size: every `gl_FragCoord` reads `welkinFragCoord`, which `main` sets
    /// to gl_FragCoord's x and y × (1 + u_drawScaleDelta) before it calls the shader's own main
    /// (renamed). With u_drawScaleDelta 0 (GL's default) the products are exact: the same numbers.
    /// A stage that reads no gl_FragCoord is returned as it is.
    public static func drawScaled(_ glsl: String) -> String {
        guard glsl.range(of: #"\bgl_FragCoord\b"#, options: .regularExpression) != nil,
              let main = glsl.range(of: #"\bvoid\s+main\s*\(\s*(void\s*)?\)"#, options: .regularExpression) else { return glsl }
        var text = glsl.replacingCharacters(in: main, with: "void welkinScaledMain()")
        text = text.replacingOccurrences(of: #"\bgl_FragCoord\b"#, with: "welkinFragCoord", options: .regularExpression)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // After #version and any #extension lines (GLSL wants them first).
        var at = 0
        for (i, line) in lines.enumerated() {
            let t = line.drop(while: \.isWhitespace)
            if t.hasPrefix("#version") || t.hasPrefix("#extension") { at = i + 1 }
        }
        lines.insert("uniform vec2 \(drawScaleUniform);\nvec4 welkinFragCoord;", at: at)
        lines.append("void main() {\n    welkinFragCoord = vec4(gl_FragCoord.xy * (vec2(1.0) + \(drawScaleUniform)), gl_FragCoord.zw);\n    welkinScaledMain();\n}")
        return lines.joined(separator: "\n")
    }

    /// Compiles `glsl` (a complete stage as WelkinGL compiles it) to validated SPIR-V and Metal; a
    /// fragment stage drawScaled, so the package can draw it at its drawable's size.
    public static func compile(_ glsl: String, stage: Stage, entryPoint: String) throws -> Compiled {
        try withDirectory { dir in
            let spv = try validatedSPIRV(stage == .fragment ? drawScaled(glsl) : glsl, stage: stage, in: dir, target: "Metal")
            let msl = try run("spirv-cross", [spv.path, "--msl", "--msl-version", "20300",
                                              "--rename-entry-point", "main", entryPoint, stage.rawValue])
            let reflection = try run("spirv-cross", [spv.path, "--reflect"])
            return Compiled(spirv: [UInt8](try Data(contentsOf: spv)), msl: msl, entryPoint: entryPoint, reflection: reflection)
        }
    }

    /// Compiles `glsl` to validated SPIR-V and translates it to GLSL ES 3.00 for WebGL2
    /// (`welkin export-web`).
    public static func essl(_ glsl: String, stage: Stage) throws -> String {
        try withDirectory { dir in
            let spv = try validatedSPIRV(glsl, stage: stage, in: dir, target: "WebGL2")
            return restoringFlat(try run("spirv-cross", [spv.path, "--es", "--version", "300"]), from: glsl)
        }
    }

    /// spirv-cross splits a struct varying (`flat out SkyValues sky;`) into one varying per member
    /// (`out float sky_zenith;` …) and leaves `flat` off them, which GLSL ES refuses for integers
    /// and which would interpolate the rest: `flat` is put back on the members of every struct
    /// varying the GLSL declared flat.
    static func restoringFlat(_ essl: String, from glsl: String) -> String {
        var names: [String] = []
        for line in glsl.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ";" })
            if words.count >= 4, words[0] == "flat", words[1] == "in" || words[1] == "out" { names.append(String(words[3])) }
        }
        guard !names.isEmpty else { return essl }
        return essl.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            // `out float sky_zenith;` or, with a precision, `in highp vec3 sky_sunVector;`
            let words = line.split(separator: " ")
            guard (3...4).contains(words.count), words[0] == "in" || words[0] == "out", let last = words.last, last.hasSuffix(";"),
                  names.contains(where: { last.hasPrefix($0 + "_") }) else { return String(line) }
            return "flat " + line
        }.joined(separator: "\n")
    }

    /// glslangValidator (OpenGL SPIR-V) and spirv-val on `glsl`, in `dir`: the module's file.
    private static func validatedSPIRV(_ glsl: String, stage: Stage, in dir: URL, target: String) throws -> URL {
        let source = dir.appendingPathComponent("shader.\(stage.rawValue)")
        let spv = dir.appendingPathComponent("shader.spv")
        try Data(compilerText(glsl).utf8).write(to: source)
        try run("glslangValidator", ["-G", "--auto-map-locations", "-S", stage.rawValue, source.path, "-o", spv.path])
        do {
            try run("spirv-val", [spv.path])
        } catch let failure as Failure where failure.description.contains("OpTypeBool") && failure.description.contains("UniformConstant") {
            // glslang's SPIR-V for OpenGL keeps loose uniforms in UniformConstant, where SPIR-V allows no bool.
            throw Failure(description: "a `uniform bool` cannot go to \(target) (SPIR-V allows no bool among loose uniforms): declare it `uniform int` and test it `!= 0`\n" + failure.description)
        }
        return spv
    }

    /// `spirv-val` on a SPIR-V module: nil when it passes, its message otherwise.
    public static func validate(_ spirv: [UInt8]) throws -> String? {
        try withDirectory { dir in
            let spv = dir.appendingPathComponent("shader.spv")
            try Data(spirv).write(to: spv)
            do { try run("spirv-val", [spv.path]); return nil } catch let f as Failure { return f.description }
        }
    }

    /// The SPIR-V turned back into GLSL 3.30 by spirv-cross (the round trip the tests draw).
    public static func glsl(fromSPIRV spirv: [UInt8]) throws -> String {
        try withDirectory { dir in
            let spv = dir.appendingPathComponent("shader.spv")
            try Data(spirv).write(to: spv)
            return try run("spirv-cross", [spv.path, "--version", "330", "--no-es"])
        }
    }

    /// The path of `program` on PATH, or a `Failure` naming the package to install.
    static func locate(_ program: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(program)") {
            return "\(dir)/\(program)"
        }
        let package = tools.first { $0.0 == program }?.1 ?? program
        throw Failure(description: "\(program) not found on PATH: install \(package) (make deps)")
    }

    /// Runs `program` and returns its standard output; a `Failure` with its output when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try locate(program))
        process.arguments = arguments
        // Standard error goes to a file, so only one pipe needs draining while it runs.
        let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-\(program)-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errFile) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errFile)
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errFile)) ?? Data()
        let output = String(decoding: outData, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let message = (output + String(decoding: errData, as: UTF8.self)).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "\(program) failed (exit \(process.terminationStatus)): \(message)")
        }
        return output
    }

    static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("welkin-spirv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try body(dir)
    }
}
