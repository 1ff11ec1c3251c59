// The errors a user can cause — a broken scene, an unwritable output, no OpenGL — as one protocol that
// each library's error types conform to in the module that owns them. `welkin`'s main.swift prints
// `userFacingDescription` and exits with `exitCode`, once, for all of them.

/// An error a user can cause and read: a sentence, and the file and JSON path it is about when there are ones.
public protocol UserFacingError: Error, CustomStringConvertible {
    /// The sentence, without the file or the JSON path.
    var message: String { get }
    /// The file the error is about, when there is one.
    var filePath: String? { get }
    /// The JSON path in `file` of the offending value (`layers[2].stops`), when there is one.
    var jsonPath: String? { get }
    /// The process's exit status: 1 (a failure) unless the type says otherwise (2 for usage mistakes).
    var exitCode: Int32 { get }
    /// What `welkin` prints: `description` unless the type adds to it (GL's errors name the program).
    var userFacingDescription: String { get }
    /// The same error naming the scene file it was found in (nil: the built-in scene), for errors
    /// thrown by code that draws a Frame and does not know its file; other errors return themselves.
    func inScene(_ file: String?) -> any UserFacingError
}

extension UserFacingError {
    public var filePath: String? { nil }
    public var jsonPath: String? { nil }
    public var exitCode: Int32 { 1 }
    public var userFacingDescription: String { description }
    public func inScene(_ file: String?) -> any UserFacingError { self }
}

/// An error about a scene whose thrower did not know the scene's file: `file: sentence`.
public struct SceneFileError: UserFacingError, Sendable {
    /// The scene file; nil for the built-in default scene.
    public var sceneFile: String?
    public var message: String
    public var filePath: String? { sceneFile }
    public var description: String { "\(sceneFile ?? "<default scene>"): \(message)" }

    public init(sceneFile: String?, message: String) { self.sceneFile = sceneFile; self.message = message }
}
