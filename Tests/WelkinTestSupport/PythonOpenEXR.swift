// Python's OpenEXR (PyPI), the outside reader EXR tests check Welkin's files with.

import Foundation
import XCTest

extension XCTestCase {
    /// Runs python3 with `script` (OpenEXR, numpy, sys and json imported); fails the test (never
    /// skips it) when Python's OpenEXR module is missing, since `make deps` installs it. Returns the
    /// JSON object the script prints.
    public func pythonOpenEXR(_ script: String, _ arguments: [String], file: StaticString = #filePath,
                              line: UInt = #line) throws -> [String: Any]? {
        let guarded = """
        import sys, json
        try:
            import OpenEXR, numpy
        except ImportError as e:
            sys.stderr.write("import failed: %s" % e)
            sys.exit(3)
        """ + "\n" + script
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", guarded] + arguments
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 {
            XCTFail("Python's OpenEXR module is missing (\(errorText)): run `make deps`, which installs it from PyPI", file: file, line: line)
            return nil
        }
        guard process.terminationStatus == 0 else {
            XCTFail("python3 failed (\(process.terminationStatus)): \(errorText)", file: file, line: line)
            return nil
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            XCTFail("python3 printed no JSON object: \(String(decoding: data, as: UTF8.self))", file: file, line: line)
            return nil
        }
        return object
    }
}
