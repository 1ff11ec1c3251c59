// Where `welkin render` and `welkin reference` write their PNG: `-o OUT.png`, or NAME-tT.png in
// the current folder (NAME: the scene file's name without its extension).

import Foundation

extension Commands {
    /// The file name without `-o`: `snow-t1.5.png` for Scenes/snow.json at 1.5 s,
    /// `welkin-default-t0.png` for the built-in scene.
    static func defaultStillName(scenePath: String?, time: Double) -> String {
        let name = scenePath.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } ?? "welkin-default"
        let seconds = time == time.rounded() && abs(time) < 1e15 ? String(Int(time)) : "\(time)"
        return "\(name.isEmpty ? "scene" : name)-t\(seconds).png"
    }

    /// `-o OUT.png` (any other extension is a usage error: the bytes would be PNG regardless), or
    /// the default name.
    static func stillOutput(_ args: Arguments, command: Command) throws -> String {
        guard let out = args.value("--output") else {
            return defaultStillName(scenePath: args.positionals.first, time: try args.time())
        }
        guard (out as NSString).pathExtension.lowercased() == "png" else {
            throw UsageError(message: "'\(out)': welkin \(command.name) writes PNG, so OUT must end in .png"
                             + " (for video, GIF or an image sequence use 'welkin export')", command: command)
        }
        return out
    }
}
