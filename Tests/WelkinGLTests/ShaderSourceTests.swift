// #include resolution, #line mapping and compile-error reporting.

import Foundation
import XCTest
import WelkinTestSupport
@testable import WelkinGL

final class ShaderSourceTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "welkin-shader-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/lib", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    var shadersDirectory: String { try! ShaderLibrary.locate().directory }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    func testIncludesAreInlinedOnceWithLineDirectives() throws {
        try write("main.frag", """
            #version 330 core
            // main
            #include "lib/a.glsl"
            #include "lib/b.glsl"
            out vec4 c;
            void main() { c = vec4(a() + b()); }
            """)
        try write("lib/a.glsl", "#include \"b.glsl\"\nfloat a() { return b(); }\n")
        try write("lib/b.glsl", "float b() { return 1.0; }\n")
        let source = try ShaderSource(path: directory + "/main.frag")
        XCTAssertEqual(source.files, [directory + "/main.frag", directory + "/lib/a.glsl", directory + "/lib/b.glsl"])
        XCTAssertEqual(source.text.split(separator: "\n").first, "#version 330 core")
        XCTAssertEqual(source.text.components(separatedBy: "float b()").count, 2, "b.glsl goes in once")
        XCTAssertTrue(source.text.contains("#line 100001 1\n"))
        XCTAssertTrue(source.text.contains("#line 200001 2\n"))
        XCTAssertTrue(source.text.contains("#line 4 0\n"), "after the first include, main resumes at its line 4")
    }

    func testMissingIncludeNamesFileAndLine() throws {
        try write("main.frag", "#version 330 core\n\n#include \"lib/a.glsl\"\n")
        try write("lib/a.glsl", "// a\n#include \"nope.glsl\"\n")
        XCTAssertThrowsError(try ShaderSource(path: directory + "/main.frag")) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.kind, .missingInclude)
            XCTAssertEqual(e.description, "\(directory)/lib/a.glsl:2: included file 'nope.glsl' not found (looked in \(directory)/lib)")
        }
    }

    func testMissingIncludeListsEveryDirectorySearched() throws {
        // A user's shader may include from beside itself or from Welkin's library: the message
        // says both places, in the order they were searched.
        try write("main.frag", "#version 330 core\n#include \"lib/helpers.glsl\"\n")
        XCTAssertThrowsError(try ShaderSource(path: directory + "/main.frag", includeDirectories: [shadersDirectory, directory + "/lib"])) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.kind, .missingInclude)
            XCTAssertEqual(e.description, "\(directory)/main.frag:2: included file 'lib/helpers.glsl' not found (looked in \(directory), \(shadersDirectory), \(directory)/lib)")
        }
        // An absolute name is looked for in one place only.
        try write("abs.frag", "#version 330 core\n#include \"/nonexistent/x.glsl\"\n")
        XCTAssertThrowsError(try ShaderSource(path: directory + "/abs.frag", includeDirectories: [shadersDirectory])) { error in
            XCTAssertEqual("\(error)", "\(directory)/abs.frag:2: included file '/nonexistent/x.glsl' not found")
        }
    }

    func testIncludeCycleIsAnError() throws {
        try write("main.frag", "#version 330 core\n#include \"lib/a.glsl\"\n")
        try write("lib/a.glsl", "#include \"b.glsl\"\n")
        try write("lib/b.glsl", "\n\n#include \"a.glsl\"\n")
        XCTAssertThrowsError(try ShaderSource(path: directory + "/main.frag")) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.kind, .includeCycle)
            XCTAssertEqual(e.diagnostics.first?.file, directory + "/lib/b.glsl")
            XCTAssertEqual(e.diagnostics.first?.line, 3)
            XCTAssertTrue(e.description.contains("a.glsl → b.glsl → a.glsl"), e.description)
        }
    }

    func testMalformedIncludeAndMisplacedVersion() throws {
        try write("main.frag", "#version 330 core\n#include <a.glsl>\n")
        XCTAssertThrowsError(try ShaderSource(path: directory + "/main.frag")) { error in
            XCTAssertEqual((error as! ShaderError).kind, .malformedInclude)
            XCTAssertEqual((error as! ShaderError).diagnostics.first?.line, 2)
        }
        try write("main.frag", "#version 330 core\n#include \"lib/v.glsl\"\n")
        try write("lib/v.glsl", "\n#version 330 core\n")
        XCTAssertThrowsError(try ShaderSource(path: directory + "/main.frag")) { error in
            XCTAssertEqual((error as! ShaderError).kind, .misplacedVersion)
            XCTAssertEqual((error as! ShaderError).description.hasPrefix("\(directory)/lib/v.glsl:2: "), true)
        }
    }

    func testInfoLogFormats() {
        XCTAssertEqual(InfoLogLine(parsing: "0:12(5): error: `x' undeclared"),
                       InfoLogLine(sourceString: 0, line: 12, message: "error: `x' undeclared"))
        XCTAssertEqual(InfoLogLine(parsing: "2(7) : error C1008: undefined variable \"x\""),
                       InfoLogLine(sourceString: 2, line: 7, message: "error C1008: undefined variable \"x\""))
        XCTAssertEqual(InfoLogLine(parsing: "ERROR: 1:3: 'x' : undeclared identifier"),
                       InfoLogLine(sourceString: 1, line: 3, message: "error: 'x' : undeclared identifier"))
        XCTAssertNil(InfoLogLine(parsing: "error: linking failed"))
        let source = try! ShaderSource(text: "#version 330 core\n", path: "top.frag")
        XCTAssertEqual(source.diagnostics(fromInfoLog: "0:3(1): error: oops\nsomething else\n").map(\.description),
                       ["top.frag:3: error: oops", "top.frag: something else"])
        // The file comes from the line number, whatever source string the driver reports.
        let two = try! ShaderSource(text: "#version 330 core\n#include \"colorspace.glsl\"\n", path: shadersDirectory + "/x.frag")
        XCTAssertEqual(two.diagnostics(fromInfoLog: "0:100007(3): error: e").map(\.description),
                       [shadersDirectory + "/colorspace.glsl:7: error: e"])
        XCTAssertEqual(source.diagnostics(fromInfoLog: "0(4) : warning C7050: w").map(\.description),
                       ["top.frag:4: warning C7050: w"])
    }

    // MARK: - Through the driver

    func testCompileErrorInIncludedFileNamesThatFile() throws {
        try TestGL.makeCurrent()
        try write("main.frag", """
            #version 330 core
            // line 2
            #include "lib/a.glsl"
            out vec4 c;
            void main() { c = vec4(a()); }
            """)
        try write("lib/a.glsl", """
            // a.glsl line 1
            #include "b.glsl"
            float a() {
                return b() + undefinedInA;
            }
            """)
        try write("lib/b.glsl", "float b() { return 1.0; }\n")
        let vertex = try ShaderSource(text: "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n", path: "inline.vert")
        XCTAssertThrowsError(try ShaderProgram(vertex: vertex, fragment: ShaderSource(path: directory + "/main.frag"))) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.kind, .compileFailed)
            XCTAssertEqual(e.diagnostics.first?.file, self.directory + "/lib/a.glsl", e.description)
            XCTAssertEqual(e.diagnostics.first?.line, 4, e.description)
            print("compile error as reported:\n\(e)")
        }
    }

    func testCompileErrorAfterIncludeNamesTopFileLine() throws {
        try TestGL.makeCurrent()
        try write("main.frag", """
            #version 330 core
            #include "lib/b.glsl"

            out vec4 c;
            void main() { c = vec4(b()) + notDeclared; }
            """)
        try write("lib/b.glsl", "float b() {\n    return 1.0;\n}\n")
        let vertex = try ShaderSource(text: "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n", path: "inline.vert")
        XCTAssertThrowsError(try ShaderProgram(vertex: vertex, fragment: ShaderSource(path: directory + "/main.frag"))) { error in
            let e = error as! ShaderError
            XCTAssertEqual(e.diagnostics.first?.file, self.directory + "/main.frag", e.description)
            XCTAssertEqual(e.diagnostics.first?.line, 5, e.description)
        }
    }
}
