// The built-in default scene: what Welkin does, in one sky that moves.

extension Scene {
    /// The scene JSON shown by a bare `welkin` and rendered by `make run`: an autumn evening over
    /// Paris under the physical sky at two minutes of sky a second (the sun sinks towards the horizon and sets at about
    /// 32 s), volumetric clouds that follow the weather, a little snow from 6 s, cloud from 18 s, clear for sunset.
    public static let defaultSceneJSON = """
    {
      "name": "Welkin default sky",
      "description": "An autumn evening over Paris, two minutes of sky a second: the sun sinks towards the horizon while clouds drift, a little snow passes through, and the sky clears for sunset.",
      "size": [1280, 720],
      "weather": {"preset": "clear", "transition": 3, "precipitation": {"snow": 0.5},
                  "schedule": [{"at": 6, "preset": "snow"}, {"at": 18, "preset": "cloudy"}, {"at": 30, "preset": "clear"}]},
      "layers": [
        {"type": "sky", "model": "physical", "date": "2024-10-20T17:45:00+02:00", "latitude": 48.8566, "longitude": 2.3522,
         "timeScale": 120, "viewAzimuth": 245, "fieldOfView": 100, "horizon": 0.85},
        {"type": "clouds"}
      ]
    }

    """

    /// The command line's name for the built-in scene (`welkin export-code default`, `welkin export
    /// default -o …`); a file of that name is `./default`.
    public static let defaultSceneName = "default"

    /// The built-in default scene.
    public static var defaultScene: Scene {
        // The JSON above is part of the program and covered by tests; a failure here is a bug.
        // swiftlint:disable:next force_try
        try! SceneLoader.decode(defaultSceneJSON, file: "<default scene>")
    }
}
