// `welkin new`: a starting scene from a preset (WelkinCore's StarterScene), framed for its size.

import Foundation
import WelkinCore

extension Commands {
    static let new = Command(
        name: "new", summary: "Write a starting scene: a weather preset (or sunset, night, milky-way) framed for a screen size.",
        usage: "welkin new [--preset NAME] [--size WxH] [-o SCENE.json [--force]]",
        discussion: """
        The scene is a physical sky with the preset's weather and clouds, seen through a rectilinear camera
        chosen for the size: a portrait phone screen sees about 100° from top to bottom, a landscape one 90°
        across, tilted up so the horizon sits 82 % of the way down. Presets:
        \(StarterScene.allCases.map { "  \($0.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))
        Without -o the scene is printed; with -o it is written (an existing file only with --force). Then:
          welkin new --preset storm --size 390x844 -o storm.json && welkin view storm.json
        """,
        options: [Options.New.preset, Options.New.size, Options.New.output, Options.New.force],
        run: { args in
            let command = named("new")!
            guard args.positionals.isEmpty else {
                throw UsageError(message: "new takes no arguments (the preset is --preset NAME, the file -o SCENE.json)", command: command)
            }
            let preset = try args[Options.New.preset] ?? .clear
            let size = try args[Options.New.size] ?? SIMD2(390, 844)
            let text = preset.json(size: size)
            guard let out = try args[Options.New.output] else {
                print(text, terminator: "")
                return 0
            }
            if FileManager.default.fileExists(atPath: out), !(try args[Options.New.force]) {
                throw Failure(message: "welkin new: \(out) exists; --force replaces it")
            }
            try writeAtomically(text, to: out)
            print("wrote \(out) (\(preset.rawValue), \(size.x)×\(size.y)); see it with: welkin view \(out)")
            return 0
        })
}

extension Options {
    /// `welkin new`'s own options.
    enum New {
        static let preset = Option<StarterScene?>("--preset", value: "NAME",
                                                  help: "clear (default), cloudy, overcast, rain, snow, storm, fog, sunset, night or milky-way.",
                                                  convert: OptionConversion.choice(StarterScene.self))
        static let size = Options.size.with(help: "The screen in pixels (default 390x844, an iPhone's points).")
        static let output = Options.output.with(value: "SCENE.json", help: "Where to write the scene (default: print it).")
        static let force = Flag("--force", help: "With -o: replace an existing file.")
    }
}
