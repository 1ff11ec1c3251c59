// One headless context and renderer shared by the GL tests. No context is a failure, never a skip.

import XCTest
import WelkinGL

public enum TestGL {
    /// Made on first use; every later test reuses it (or its error).
    nonisolated(unsafe) private static var made: Result<GLRenderer, Error>?

    public static func renderer() throws -> GLRenderer {
        if made == nil {
            made = Result {
                let context = try GLContext.headless()
                print("GL tests: \(context.backend.rawValue), \(context.renderer), \(context.version)")
                return try GLRenderer(context: context, shaders: try ShaderLibrary.locate())
            }
        }
        return try made!.get()
    }

    public static func makeCurrent() throws {
        try renderer().context.makeCurrent()
    }
}
