import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinCore

/// The twin rule: a shader that mirrors Swift (its header names the Swift file) has every function
/// under the same name on the Swift side (or a listed rename), uses no numeric literal the Swift
/// side lacks, and repeats none of the constants Swift hands every shader through the prelude.
final class ShaderTwinTests: XCTestCase {
    static let repository = Repository.root

    /// GLSL functions whose Swift twin has another name, and why.
    static let renamed: [String: String] = [
        "cbrt": "cbrtf",          // C's cbrtf, which Swift calls; GLSL's pow is undefined below 0
        "atan2": "atan2f",        // C's atan2f; GLSL's atan(y, x) is undefined at the origin
        "spriteAtan2": "atan2f",
        "unitFloat": "unit",      // `unit` reads badly as a GLSL function name
        "meshColor": "color",     // GLSL has no methods: Type.color(…) becomes typeColor(…)
        "skyColor": "color", "coverColor": "color", "spritesColor": "color", "skyPart": "color",
        "cloudShape": "shape", "spriteSupport": "support", "spriteCoverage": "coverage",
    ]
    /// Literals a GLSL twin may use that its Swift twin spells another way, and why.
    static let allowedLiterals: [String: Set<String>] = [
        "colorspace.glsl": ["3.0"],   // cbrt's 1/3 (Swift calls cbrtf)
    ]

    static func shaderFiles() throws -> [(name: String, text: String)] {
        let dir = repository.appendingPathComponent("Shaders")
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            .filter { $0.hasSuffix(".glsl") || $0.hasSuffix(".frag") || $0.hasSuffix(".vert") }
            .map { ($0, try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) }
    }

    static func matches(_ pattern: String, in text: String, group: Int = 1) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    func testTwinsShareFunctionsAndLiterals() throws {
        var twinned = 0
        for (name, text) in try Self.shaderFiles() {
            let header = text.split(separator: "\n").prefix(8).joined(separator: "\n")
            let twins = Self.matches(#"(Sources/Welkin(?:Core|SkyModel)/[\w/]+\.swift)"#, in: header)
            guard !twins.isEmpty else { continue }
            twinned += 1
            let swift = try twins.map { try String(contentsOf: Self.repository.appendingPathComponent($0), encoding: .utf8) }.joined()
            let code = Self.withoutComments(text), swiftCode = Self.withoutComments(swift)
            let functions = Self.matches(#"^(?:float|vec[234]|int|uint|bool|void|ivec[234]|uvec[234])\s+(\w+)\s*\("#, in: code)
            for function in Set(functions) {
                let twin = Self.renamed[function] ?? function
                XCTAssertTrue(swiftCode.contains("func \(twin)(") || swiftCode.contains("\(twin)("),
                              "\(name): \(function) has no Swift twin '\(twin)' in \(twins)")
            }
            let swiftValues = Set(Self.matches(#"(?<![\w.])(\d[\d_]*(?:\.[\d_]+)?(?:e-?\d+)?)"#, in: swiftCode)
                .compactMap { Double($0.replacingOccurrences(of: "_", with: "")) })
            for literal in Set(Self.matches(#"(?<![\w.])(\d+\.\d+(?:e-?\d+)?)"#, in: code))
            where !(Self.allowedLiterals[name] ?? []).contains(literal) {
                XCTAssertTrue(swiftValues.contains(Double(literal)!), "\(name): \(literal) does not appear in its Swift twin \(twins)")
            }
        }
        XCTAssertGreaterThanOrEqual(twinned, 7)
    }

    func testNoShaderRepeatsAPreludeConstant() throws {
        let files = try Self.shaderFiles()
        for (constant, value) in ShaderConstants.defines {
            for (name, text) in files {
                let code = Self.withoutComments(text)
                XCTAssertTrue(Self.matches(#"^\s*(?:const\s+\w+\s+|#define\s+)("# + constant + #")\b"#, in: code).isEmpty,
                              "\(name) defines \(constant), which the prelude carries")
                // Distinctive values must not appear as literals either (codes 0…7 are too common to check).
                if value.hasPrefix("0x") {
                    XCTAssertFalse(code.lowercased().contains(value.lowercased().dropLast()), "\(name) repeats \(constant) = \(value)")
                } else if value.contains("(") {
                    let firstRow = String(value[value.index(after: value.firstIndex(of: "(")!)...].prefix(while: { $0 != ")" }))
                    XCTAssertFalse(code.contains(firstRow + ")"), "\(name) repeats \(constant)")
                } else if value.contains("."), let v = Double(value), v != v.rounded() {
                    XCTAssertTrue(Self.matches(#"(?<![\w.])(\d+\.\d+)(?![\d])"#, in: code).allSatisfy { Double($0) != v },
                                  "\(name) repeats \(constant) = \(value)")
                }
            }
        }
    }

    func testPreludeNamesAreUniqueAndValuesFromSwift() {
        let names = ShaderConstants.defines.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        let value = Dictionary(uniqueKeysWithValues: ShaderConstants.defines.map { ($0.name, $0.value) })
        XCTAssertEqual(value["SPRITE_SOFT_DOT"], "\(SpriteKind.softDot.code)")
        XCTAssertEqual(value["COLOR_SPACE_LINEAR_SRGB"], "\(ColorSpace.linearSRGB.code)")
        XCTAssertEqual(value["MAXIMUM_STOPS"], "\(Gradient.maximumStops)")
        XCTAssertEqual(value["LATTICE_X"], "0x165667b1u")
        XCTAssertEqual(value["FLAKE_ARM_WIDTH"], "0.04")
        XCTAssertEqual(value["BLUR_REACH"], "3.0")
        XCTAssertEqual(value["CUMULUS_PUFFS"]?.hasPrefix("vec3[5](vec3(-0.52, 0.18, 0.4), "), true, value["CUMULUS_PUFFS"] ?? "")
    }
}
