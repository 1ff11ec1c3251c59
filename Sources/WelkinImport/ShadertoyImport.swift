// `welkin import shader.json`: a shader exported from Shadertoy as a Welkin scene with one
// multipass `shader` layer and a file per pass (docs/shaders.md, "Importing from Shadertoy").
//
// Two JSON forms are read: the site's API answer, `{"Shader": {"info", "renderpass": [...]}}`, and
// the bare shader object (`{"ver", "info", "renderpass"}`, as the site's own export and older tools
// write it, alone or as a one-element array). A pass's inputs name a channel by `type` (export) or
// `ctype` (API) and its file by `filepath` or `src`. Buffers are matched by their output id, never
// by name (names vary: "Buf A", "Buffer @", "image"): Shadertoy's ids 4dXGR8, XsXGR8, 4sXGR8 and
// XdfGR8 (older exports: 257…260) are Buffer A…D, and a buffer input names the id it reads.
// Media textures are not in the file: one found beside the JSON under its file name (a PNG) is used,
// any other becomes generated noise of Shadertoy's usual size (2D 256², volume 32³, cube 256²),
// with a warning. Cube A (id 4dX3Rr, older 41) becomes the layer's `cube`. Sound passes and music,
// microphone, video and webcam inputs are refused with a sentence naming the pass.

import Foundation
import WelkinCore

public enum ShadertoyImport {
    public struct Options: Sendable {
        /// The scene's size in points (Shadertoy's default canvas is 800×450).
        public var size: SIMD2<Int> = [800, 450]
        public init() {}
    }

    /// A pass file to write next to the scene.
    public struct PassFile: Sendable, Equatable {
        /// A plain file name (no folder).
        public var fileName: String
        public var text: String
    }

    public struct Result: Sendable {
        /// The scene file's text (JSON).
        public var scene: String
        /// The pass files the scene names (image, common, buffers), to write beside it.
        public var files: [PassFile]
        /// What the scene does not reproduce, one sentence each.
        public var warnings: [String]
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Buffer A…D's output ids: Shadertoy's string ids and the numbers older exports use.
    static let bufferIDs: [(name: String, ids: [String])] = [
        ("A", ["4dXGR8", "257"]), ("B", ["XsXGR8", "258"]), ("C", ["4sXGR8", "259"]), ("D", ["XdfGR8", "260"]),
    ]
    /// Cube A's output id.
    static let cubeIDs = ["4dX3Rr", "41"]

    /// Whether `text` looks like a Shadertoy JSON file (so `welkin import` picks this importer).
    public static func looksLikeShadertoy(_ text: String) -> Bool {
        text.contains("\"renderpass\"")
    }

    /// Converts the JSON `text` (the file at `path`) into a scene named `name`; `directory` is where
    /// media found beside the JSON are looked for.
    public static func convert(_ text: String, path: String, name: String, options: Options = Options()) throws -> Result {
        let file = (path as NSString).lastPathComponent
        func fail(_ where_: String, _ message: String) -> Failure { Failure(description: "\(path): \(where_): \(message)") }
        guard let data = text.data(using: .utf8), let json = try? JSONSerialization.jsonObject(with: data) else {
            throw Failure(description: "\(path): not JSON")
        }
        // The shader object and the JSON path to it.
        var shader: [String: Any]
        var root: String
        if let object = json as? [String: Any], let inner = object["Shader"] as? [String: Any] {
            shader = inner; root = "Shader"
        } else if let object = json as? [String: Any], object["renderpass"] != nil {
            shader = object; root = "$"
        } else if let array = json as? [[String: Any]] {
            guard array.count == 1 else {
                throw fail("$", "the file holds \(array.count) shaders; welkin import takes one (export them one at a time)")
            }
            shader = array[0]; root = "[0]"
        } else {
            throw fail("$", "expected Shadertoy's JSON: {\"Shader\": {\"info\", \"renderpass\"}} or a shader object with \"renderpass\"")
        }
        guard let passes = shader["renderpass"] as? [[String: Any]], !passes.isEmpty else {
            throw fail("\(root).renderpass", "expected an array of passes")
        }
        let info = shader["info"] as? [String: Any] ?? [:]
        var warnings: [String] = []
        var files: [PassFile] = []
        var image: (code: String, inputs: [[String: Any]], at: String)?
        var common: String?
        var buffers: [(name: String, code: String, inputs: [[String: Any]], at: String)] = []
        var cube: (code: String, inputs: [[String: Any]], at: String)?
        let base = name

        for (i, pass) in passes.enumerated() {
            let at = "\(root).renderpass[\(i)]"
            let passName = pass["name"] as? String ?? "pass \(i)"
            let type = (pass["type"] as? String ?? "").lowercased()
            guard let code = pass["code"] as? String else { throw fail(at + ".code", "expected the pass's code (a string)") }
            let inputs = pass["inputs"] as? [[String: Any]] ?? []
            let outputs = pass["outputs"] as? [[String: Any]] ?? []
            let outputID = outputs.first.flatMap { Self.id($0["id"]) }
            switch type {
            case "image":
                guard image == nil else { throw fail(at, "a second image pass (\"\(passName)\")") }
                image = (code, inputs, at)
            case "common":
                guard common == nil else { throw fail(at, "a second Common pass (\"\(passName)\")") }
                common = code
            case "buffer":
                guard let outputID, let b = bufferIDs.first(where: { $0.ids.contains(outputID) }) else {
                    throw fail(at + ".outputs", "buffer \"\(passName)\" writes \(outputID.map { "output id \($0)" } ?? "no output"), which is none of Buffer A…D's (4dXGR8, XsXGR8, 4sXGR8, XdfGR8)")
                }
                guard !buffers.contains(where: { $0.name == b.name }) else { throw fail(at, "a second pass writes Buffer \(b.name)") }
                buffers.append((b.name, code, inputs, at))
            case "sound":
                throw fail(at, "pass \"\(passName)\" is a sound shader (mainSound): Welkin draws pictures, not sound")
            case "cubemap":
                guard cube == nil else { throw fail(at, "a second cube map pass (\"\(passName)\")") }
                cube = (code, inputs, at)
            default:
                throw fail(at + ".type", "pass \"\(passName)\" has type \"\(type)\"; expected image, buffer, common, cubemap or sound")
            }
        }
        guard let image else { throw fail("\(root).renderpass", "no image pass (type \"image\")") }
        buffers.sort { $0.name < $1.name }
        var present = Set(buffers.map(\.name))
        if cube != nil { present.insert("cube") }

        /// The channels of a pass as scene JSON (an array by channel index, gaps as empty).
        func channels(_ inputs: [[String: Any]], at: String, pass: String) throws -> String? {
            var byIndex: [Int: String] = [:]
            for (k, input) in inputs.enumerated() {
                let here = "\(at).inputs[\(k)]"
                let channel = (input["channel"] as? Int) ?? Int(input["channel"] as? String ?? "") ?? k
                guard (0..<4).contains(channel) else { throw fail(here + ".channel", "channel \(channel); Shadertoy's channels are 0…3") }
                let kind = ((input["type"] ?? input["ctype"]) as? String ?? "").lowercased()
                let filepath = (input["filepath"] ?? input["src"]) as? String ?? ""
                let sampler = input["sampler"] as? [String: Any] ?? [:]
                var settings: [String] = []
                if let f = sampler["filter"] as? String, ["nearest", "linear", "mipmap"].contains(f) { settings.append("\"filter\": \"\(f)\"") }
                if let w = sampler["wrap"] as? String, ["clamp", "repeat"].contains(w) { settings.append("\"wrap\": \"\(w)\"") }
                let vflip: Bool? = (sampler["vflip"] as? Bool) ?? (sampler["vflip"] as? String).map { $0 == "true" }
                let media = (filepath as NSString).lastPathComponent
                var entry: String
                switch kind {
                case "buffer" where Self.id(input["id"]).map(cubeIDs.contains) == true,
                     "cubemap" where Self.id(input["id"]).map(cubeIDs.contains) == true:
                    guard present.contains("cube") else { throw fail(here, "pass \"\(pass)\" reads Cube A, which the file does not have") }
                    entry = "\"buffer\": \"cube\""
                case "buffer":
                    guard let id = Self.id(input["id"]), let b = bufferIDs.first(where: { $0.ids.contains(id) }) else {
                        throw fail(here + ".id", "pass \"\(pass)\" reads a buffer by an id that is none of Buffer A…D's")
                    }
                    guard present.contains(b.name) else { throw fail(here, "pass \"\(pass)\" reads Buffer \(b.name), which the file does not have") }
                    entry = "\"buffer\": \"\(b.name)\""
                case "texture":
                    let beside = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(media)
                    if media.lowercased().hasSuffix(".png"), FileManager.default.fileExists(atPath: beside) {
                        entry = "\"image\": \(JSONValue.quoted(media))"
                        if let vflip { settings.append("\"vflip\": \(vflip)") }
                    } else {
                        entry = "\"noise\": \"image\", \"size\": 256"
                        warnings.append("\(pass): iChannel\(channel) is Shadertoy's texture \(filepath.isEmpty ? "(no file named)" : filepath), not in the file: generated noise 256×256 instead (put the PNG beside the JSON as \(media.isEmpty ? "NAME.png" : media) to use it)")
                    }
                case "volume":
                    entry = "\"noise\": \"volume\", \"size\": 32"
                    warnings.append("\(pass): iChannel\(channel) is Shadertoy's volume \(filepath): generated noise 32×32×32 instead")
                case "cubemap":
                    entry = "\"noise\": \"cube\", \"size\": 256"
                    warnings.append("\(pass): iChannel\(channel) is Shadertoy's cube map \(filepath): generated noise (six 256×256 faces) instead")
                case "keyboard":
                    entry = "\"keyboard\": true"
                case "music", "musicstream", "mic", "video", "webcam":
                    let what = ["music": "music", "musicstream": "a SoundCloud stream", "mic": "the microphone",
                                "video": "a video", "webcam": "the webcam"][kind]!
                    throw fail(here, "pass \"\(pass)\" reads \(what) on iChannel\(channel): Welkin has no \(kind == "video" || kind == "webcam" ? "video" : "sound") inputs; remove the input on Shadertoy and export again")
                default:
                    throw fail(here + ".type", "pass \"\(pass)\": iChannel\(channel) has input type \"\(kind)\"; expected buffer, texture, volume, cubemap or keyboard")
                }
                guard byIndex[channel] == nil else { throw fail(here, "pass \"\(pass)\" gives iChannel\(channel) twice") }
                byIndex[channel] = "{" + ([entry] + settings).joined(separator: ", ") + "}"
            }
            guard let last = byIndex.keys.max() else { return nil }
            return "[" + (0...last).map { byIndex[$0] ?? "{\"empty\": true}" }.joined(separator: ", ") + "]"
        }

        let imageFile = "\(base)-image.frag"
        files.append(PassFile(fileName: imageFile, text: Self.ending(image.code)))
        var layer = ["\"type\": \"shader\"", "\"fragment\": \(JSONValue.quoted(imageFile))"]
        if let c = try channels(image.inputs, at: image.at, pass: "Image") { layer.append("\"channels\": \(c)") }
        if let common {
            let commonFile = "\(base)-common.glsl"
            files.append(PassFile(fileName: commonFile, text: Self.ending(common)))
            layer.append("\"common\": \(JSONValue.quoted(commonFile))")
        }
        if !buffers.isEmpty {
            var entries: [String] = []
            for b in buffers {
                let bufferFile = "\(base)-buffer-\(b.name.lowercased()).frag"
                files.append(PassFile(fileName: bufferFile, text: Self.ending(b.code)))
                var fields = ["\"fragment\": \(JSONValue.quoted(bufferFile))"]
                if let c = try channels(b.inputs, at: b.at, pass: "Buffer \(b.name)") { fields.append("\"channels\": \(c)") }
                entries.append("\"\(b.name)\": {" + fields.joined(separator: ", ") + "}")
            }
            layer.append("\"buffers\": {\n       " + entries.joined(separator: ",\n       ") + "}")
        }
        if let cube {
            let cubeFile = "\(base)-cube-a.frag"
            files.append(PassFile(fileName: cubeFile, text: Self.ending(cube.code)))
            var fields = ["\"fragment\": \(JSONValue.quoted(cubeFile))"]
            if let c = try channels(cube.inputs, at: cube.at, pass: "Cube A") { fields.append("\"channels\": \(c)") }
            layer.append("\"cube\": {" + fields.joined(separator: ", ") + "}")
        }
        let title = info["name"] as? String ?? name
        var description = "A Shadertoy shader imported from \(file)"
        if let id = info["id"] as? String, !id.isEmpty { description += " (https://www.shadertoy.com/view/\(id))" }
        if let user = info["username"] as? String, !user.isEmpty { description += ", by \(user)" }
        description += "."
        if let d = info["description"] as? String, !d.isEmpty { description += " " + d }
        let scene = """
            {
              "name": \(JSONValue.quoted(title)),
              "description": \(JSONValue.quoted(description)),
              "size": [\(options.size.x), \(options.size.y)],
              "dither": false,
              "layers": [
                {\(layer.joined(separator: ",\n     "))}
              ]
            }

            """
        return Result(scene: scene, files: files, warnings: warnings)
    }

    /// An output or input id as text (a string, or a number in older exports).
    static func id(_ value: Any?) -> String? {
        if let s = value as? String { return s }
        if let n = value as? Int { return String(n) }
        if let n = value as? Double, n == n.rounded() { return String(Int(n)) }
        return nil
    }

    /// `text` ending with one line break.
    static func ending(_ text: String) -> String { text.hasSuffix("\n") ? text : text + "\n" }
}
