// MetalLayout: where a Metal function made by SPIRV-Cross takes each uniform, and in what layout.
//
// SPIRV-Cross turns each loose GLSL uniform into a `constant T& name [[buffer(N)]]` argument of the
// entry point, each sampler into `texture… name [[texture(N)]]` with `sampler nameSmplr
// [[sampler(M)]]`; the indices are its own choice, so they are read from the entry point's
// signature. `--reflect` does not list loose uniforms, but it gives every struct's members in
// order, and a struct made from SPIR-V without offsets uses Metal's natural layout: scalars 4 bytes,
// float2 8, float3 and float4 16 (size and alignment), arrays of elements at their aligned size,
// structs aligned to their largest member and padded to it (Metal Shading Language Specification,
// table 2.2 and section 2.6).

import Foundation
import WelkinGL

enum MetalLayout {
    /// A type's size and alignment in Metal's constant address space.
    struct Shape: Equatable { var size: Int; var alignment: Int }

    /// One value in a buffer: where its words go and which GL uniform gives them.
    struct Field: Equatable {
        /// The GL uniform name (`u_sky.zenith`).
        var name: String
        var offset: Int
        /// Components per element and element count; each component 4 bytes (bool: 1).
        var components: Int
        var count: Int
        /// Bytes between elements (an array), and between components (4; bool 1).
        var stride: Int
        var componentSize: Int
    }

    struct Buffer: Equatable {
        var name: String
        var index: Int
        var size: Int
        var fields: [Field]
    }

    struct Texture: Equatable {
        var name: String
        var index: Int
        var sampler: Int?
        var type: String
    }

    /// The arguments of one entry point.
    struct Function: Sendable, Equatable {
        var buffers: [Buffer]
        var textures: [Texture]

        init(_ compiled: ShaderPipeline.Compiled) throws {
            let types = try MetalLayout.structs(compiled.reflection)
            guard let start = compiled.msl.range(of: " \(compiled.entryPoint)(") else {
                throw ShaderPipeline.Failure(description: "spirv-cross wrote no entry point \(compiled.entryPoint)")
            }
            let rest = compiled.msl[start.upperBound...]
            let signature = String(rest[..<(rest.range(of: ")\n")?.lowerBound ?? rest.endIndex)])
            var buffers: [Buffer] = [], textures: [Texture] = [], samplers: [String: Int] = [:]
            for argument in MetalLayout.arguments(signature) {
                let (declaration, attribute) = argument
                let words = declaration.split(separator: " ").map(String.init)
                guard let name = words.last else { continue }
                if let index = MetalLayout.index(attribute, "buffer"), words.first == "constant" {
                    let type = words.dropFirst().dropLast().joined(separator: " ").replacingOccurrences(of: "&", with: "")
                    let cleanName = name.replacingOccurrences(of: "&", with: "")
                    var fields: [Field] = []
                    let shape = try MetalLayout.layout(type, name: cleanName, at: 0, types: types, into: &fields)
                    buffers.append(Buffer(name: cleanName, index: index, size: shape.size, fields: fields))
                } else if let index = MetalLayout.index(attribute, "texture") {
                    textures.append(Texture(name: name, index: index, sampler: nil, type: words.dropLast().joined(separator: " ")))
                } else if let index = MetalLayout.index(attribute, "sampler"), name.hasSuffix("Smplr") {
                    samplers[String(name.dropLast(5))] = index
                }
            }
            for i in textures.indices { textures[i].sampler = samplers[textures[i].name] }
            self.buffers = buffers.sorted { $0.index < $1.index }
            self.textures = textures.sorted { $0.index < $1.index }
        }
    }

    /// `(declaration, attribute)` for each argument of an entry point's parameter list.
    static func arguments(_ signature: String) -> [(String, String)] {
        var out: [(String, String)] = []
        var depth = 0, current = ""
        for c in signature {
            if c == "<" { depth += 1 } else if c == ">" { depth -= 1 }
            if c == "," && depth == 0 {
                out.append(split(current)); current = ""
            } else {
                current.append(c)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { out.append(split(current)) }
        return out
    }

    private static func split(_ argument: String) -> (String, String) {
        let a = argument.trimmingCharacters(in: .whitespaces)
        guard let open = a.range(of: "[[") else { return (a, "") }
        return (a[..<open.lowerBound].trimmingCharacters(in: .whitespaces), String(a[open.lowerBound...]))
    }

    /// N in `[[kind(N)]]`.
    static func index(_ attribute: String, _ kind: String) -> Int? {
        guard let r = attribute.range(of: "[[\(kind)(") else { return nil }
        return Int(attribute[r.upperBound...].prefix { $0.isNumber })
    }

    /// Struct name → members (name, GLSL type, array length) from `spirv-cross --reflect`.
    static func structs(_ reflection: String) throws -> [String: [(name: String, type: String, array: Int?)]] {
        guard let json = try JSONSerialization.jsonObject(with: Data(reflection.utf8)) as? [String: Any] else { return [:] }
        let types = json["types"] as? [String: [String: Any]] ?? [:]
        var out: [String: [(String, String, Int?)]] = [:]
        for (id, t) in types {
            let members = (t["members"] as? [[String: Any]] ?? []).map { m -> (String, String, Int?) in
                var type = m["type"] as? String ?? ""
                if let referenced = types[type]?["name"] as? String { type = referenced }
                return (m["name"] as? String ?? "", type, (m["array"] as? [Int])?.first)
            }
            out[t["name"] as? String ?? id] = members
        }
        return out
    }

    /// Metal's scalar and vector types, and GLSL's names for the same (struct members come as GLSL).
    static let vectors: [String: (components: Int, componentSize: Int, shape: Shape)] = {
        var v: [String: (Int, Int, Shape)] = [:]
        for (metal, glsl) in [("float", "float"), ("int", "int"), ("uint", "uint")] {
            let prefix = glsl == "float" ? "vec" : (glsl == "int" ? "ivec" : "uvec")
            v[metal] = (1, 4, Shape(size: 4, alignment: 4)); v[glsl] = v[metal]
            v[metal + "2"] = (2, 4, Shape(size: 8, alignment: 8)); v[prefix + "2"] = v[metal + "2"]
            v[metal + "3"] = (3, 4, Shape(size: 16, alignment: 16)); v[prefix + "3"] = v[metal + "3"]
            v[metal + "4"] = (4, 4, Shape(size: 16, alignment: 16)); v[prefix + "4"] = v[metal + "4"]
        }
        v["bool"] = (1, 1, Shape(size: 1, alignment: 1))
        v["float3x3"] = (9, 4, Shape(size: 48, alignment: 16)); v["mat3"] = v["float3x3"]
        v["float4x4"] = (16, 4, Shape(size: 64, alignment: 16)); v["mat4"] = v["float4x4"]
        return v
    }()

    static func aligned(_ n: Int, _ a: Int) -> Int { (n + a - 1) / a * a }

    /// Lays out `type` (a Metal type from the signature, or a GLSL one from a struct member) for the
    /// uniform `name` at `offset`, appending its leaves to `fields`.
    @discardableResult
    static func layout(_ type: String, name: String, at offset: Int, count: Int? = nil,
                       types: [String: [(name: String, type: String, array: Int?)]], into fields: inout [Field]) throws -> Shape {
        var type = type.trimmingCharacters(in: .whitespaces)
        var count = count
        if type.hasPrefix("spvUnsafeArray<"), let comma = type.lastIndex(of: ",") {
            count = Int(type[type.index(after: comma)...].filter(\.isNumber))
            type = String(type[type.index(type.startIndex, offsetBy: "spvUnsafeArray<".count)..<comma])
        }
        if let v = vectors[type] {
            let stride = aligned(v.shape.size, v.shape.alignment)
            let componentStride = type.contains("3x3") || type == "mat3" ? 16 : v.componentSize
            if type.contains("x3") || type == "mat3" {
                // A float3x3 is three float3 columns of 16 bytes: GL's 9 words go 3 a column.
                for column in 0..<3 {
                    fields.append(Field(name: name, offset: offset + 16 * column, components: 3, count: 1, stride: 16, componentSize: 4))
                }
                _ = componentStride
            } else {
                fields.append(Field(name: name, offset: offset, components: v.components, count: count ?? 1, stride: stride, componentSize: v.componentSize))
            }
            return Shape(size: stride * (count ?? 1), alignment: v.shape.alignment)
        }
        guard let members = types[type] else {
            throw ShaderPipeline.Failure(description: "uniform \(name): Metal type \(type) is not one Welkin lays out")
        }
        guard count == nil || count == 1 else {
            throw ShaderPipeline.Failure(description: "uniform \(name): arrays of structs are not exported")
        }
        var position = 0, alignment = 1
        for m in members {
            var probe: [Field] = []
            let shape = try layout(m.type, name: "\(name).\(m.name)", at: 0, count: m.array, types: types, into: &probe)
            position = aligned(position, shape.alignment)
            _ = try layout(m.type, name: "\(name).\(m.name)", at: offset + position, count: m.array, types: types, into: &fields)
            position += shape.size
            alignment = max(alignment, shape.alignment)
        }
        return Shape(size: aligned(max(position, 1), alignment), alignment: alignment)
    }

    /// The bytes of `buffer` from a draw's uniform values (a uniform GL left out reads zeros).
    static func pack(_ buffer: Buffer, _ uniforms: [String: GLCapture.Uniform]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: buffer.size)
        var matrixColumn: [String: Int] = [:]
        for field in buffer.fields {
            guard let u = uniforms[field.name] else { continue }
            // A mat3's columns are three fields of the same name, in order.
            let column = matrixColumn[field.name, default: 0]
            if u.type == "mat3" { matrixColumn[field.name] = column + 1 }
            let base = u.type == "mat3" ? column * 3 : 0
            for element in 0..<min(field.count, u.count) {
                for c in 0..<field.components {
                    let wordIndex = u.type == "mat3" ? base + c : element * (u.words.count / max(u.count, 1)) + c
                    guard wordIndex < u.words.count else { continue }
                    let word = u.words[wordIndex]
                    let at = field.offset + element * field.stride + c * field.componentSize
                    if field.componentSize == 1 {
                        bytes[at] = word != 0 ? 1 : 0
                    } else {
                        for b in 0..<4 { bytes[at + b] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(b))) }
                    }
                }
            }
        }
        return bytes
    }
}
