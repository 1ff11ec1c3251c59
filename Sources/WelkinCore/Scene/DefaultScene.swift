// The built-in default scene: seed 000's day sky with a soft sun glow.

extension Scene {
    /// The scene JSON shown by a bare `welkin` and rendered by `make run`.
    public static let defaultSceneJSON = """
    {
      "name": "Welkin default sky",
      "size": [1280, 720],
      "layers": [
        {"type": "linearGradient", "start": "top", "end": "bottom",
         "stops": [[0.1, 0.3, 0.8], [0.4, 0.6, 1.0]]},
        {"type": "radialGradient", "center": [0.78, 0.22], "startRadius": 0, "endRadius": 260,
         "stops": [{"color": [1.0, 0.96, 0.85, 0.85], "location": 0},
                   {"color": [1.0, 0.9, 0.7, 0.35], "location": 0.12},
                   {"color": [1.0, 0.85, 0.6, 0], "location": 1}]}
      ]
    }
    """

    /// The built-in default scene.
    public static var defaultScene: Scene {
        // The JSON above is part of the program and covered by tests; a failure here is a bug.
        // swiftlint:disable:next force_try
        try! SceneLoader.decode(defaultSceneJSON, file: "<default scene>")
    }
}
