// `welkin particles`: the live particle set of a scene at one instant, for tests, debugging and
// users' own tooling.

import Foundation
import WelkinCore

extension Commands {
    static let particles = Command(
        name: "particles", summary: "Print the live particles of a scene's emitters at time T.",
        usage: "welkin particles SCENE [--time T] [--json]",
        discussion: """
        Positions are in points of the scene's frame, where each particle is drawn (sway included);
        velocity is points per second, age and lifetime seconds, angle radians, colour sRGB with
        straight alpha (ramps applied). Particles are listed layer by layer, cell by cell, oldest first,
        then the weather's rain (emitter 1000000) and snow (1000001) as the frame draws them.
        JSON: {"time": T, "particles": [{"emitter": index, "cell": name, "position": [x, y],
        "velocity": [vx, vy], "age": s, "lifetime": s, "scale": s, "angle": rad, "color": [r, g, b, a]}]}
        """,
        options: [Options.time, Options.Particles.json],
        run: { args in
            let command = named("particles")!
            guard args.positionals.count == 1 else {
                throw UsageError(message: "expected one scene file", command: command)
            }
            let time = try args[Options.time]
            let scene = try loadScene(args, command: command)
            let (particles, dropped) = ParticleSnapshot.all(in: scene, at: time)
            for d in dropped {
                printError("\(args.positionals[0]): layers[\(d.layer)].maxParticles: warning: the layer is full; \(d.count) births were dropped")
            }
            if try args[Options.Particles.json] {
                var out = "{\"time\": \(particleNumber(time)), \"particles\": ["
                for (i, p) in particles.enumerated() {
                    out += i == 0 ? "\n" : ",\n"
                    out += "  {\"emitter\": \(p.emitter), \"cell\": \(JSONValue.quoted(p.cell)), "
                    out += "\"position\": [\(particleNumber(p.position.x)), \(particleNumber(p.position.y))], "
                    out += "\"velocity\": [\(particleNumber(p.velocity.x)), \(particleNumber(p.velocity.y))], "
                    out += "\"age\": \(particleNumber(p.age)), \"lifetime\": \(particleNumber(p.lifetime)), "
                    out += "\"scale\": \(particleNumber(p.scale)), \"angle\": \(particleNumber(p.angle)), "
                    out += "\"color\": [\([p.color.x, p.color.y, p.color.z, p.color.w].map(particleNumber).joined(separator: ", "))]}"
                }
                out += particles.isEmpty ? "]}" : "\n]}"
                print(out)
            } else {
                print("\(args.positionals[0]) at t = \(particleNumber(time)) s: \(particles.count) particles")
                if !particles.isEmpty {
                    print("emitter  cell                     x         y        vx        vy     age  lifetime   scale    angle   r     g     b     a")
                }
                for p in particles {
                    let name = p.cell.count > 16 ? String(p.cell.prefix(15)) + "…" : p.cell
                    print(String(format: "%7d  %-16@ %9.2f %9.2f %9.2f %9.2f %7.3f %9.3f %7.3f %8.3f %5.3f %5.3f %5.3f %5.3f",
                                 p.emitter, name as NSString, p.position.x, p.position.y, p.velocity.x, p.velocity.y,
                                 p.age, p.lifetime, p.scale, p.angle, p.color.x, p.color.y, p.color.z, p.color.w))
                }
            }
            return 0
        })

    /// Up to 9 significant digits: every Float the simulation holds survives the round trip.
    static func particleNumber(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(format: "%.9g", v)
    }
}

extension Options {
    /// `welkin particles`'s own options.
    enum Particles {
        static let json = Options.json.with(help: "Print JSON instead of a table.")
    }
}
