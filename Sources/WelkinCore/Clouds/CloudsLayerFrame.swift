// How a `clouds` layer enters a Frame: its numbers under the weather, the light of the sky below
// it, and each pixel's direction (Frame.SkySetup).

import Foundation
import WelkinAtmosphere

extension CloudsLayer: LayerContent {
    public var typeName: String { Self.kind.type }
    public var isSkySpace: Bool { true }

    /// The clouds take their light from the sky drawn below them: the physical sky part of the
    /// frame's last sky layer when there is one, the palette's colours otherwise.
    public func resolve(_ layer: Layer, index: Int, in frame: inout Frame.Builder) {
        let r = frame.resolution
        guard let state = frame.sky else { return }
        var physical: (draw: PhysicalSkyDraw, layer: SkyLayer)?
        var night: NightSkyDraw?
        // The ground the clouds' shadow falls on: the last sky drawn below them (none: no shadow).
        let ground = frame.layers.reversed().lazy.compactMap { ($0 as? SkyDraw)?.parts.lazy.compactMap(\.ground).last }.first
        for case let sky as SkyDraw in frame.layers.reversed() {
            for case .physical(let p) in sky.parts { physical = (p, Self.firstPhysicalSky(r.scene) ?? SkyLayer()) }
            if night == nil { night = sky.parts.lazy.compactMap(\.nightSky).first }
            if physical != nil { break }
        }
        // No cloud and no cirrus (coverage 0: fog's): nothing to march.
        let s = shape(weather: state.weather.parameters)
        guard s.coverage > 0 || s.cirrus > 0 else { return }
        var draw = CloudsDraw(self, state: state, physical: physical, night: night, opacity: layer.opacity, time: r.time,
                              seed: CloudsDraw.seed(scene: r.seed, layer: self.seed, index: index),
                              pixelSize: r.pixelSize, projection: r.skySetup.pixelDirections, linear: r.options.linearLight,
                              interactive: r.options.interactive)
        if let ground, ground.mode != SkyGround.none.code {
            draw.groundShade = CloudsDraw.groundShadeAlpha(coverage: s.coverage, darkness: state.weather.parameters.cloudDarkness,
                                                           linear: r.options.linearLight)
        }
        frame.layers.append(draw)
    }

    static func firstPhysicalSky(_ scene: Scene) -> SkyLayer? {
        for layer in scene.layers {
            if case .sky(let s)? = layer.content as? SkyContent, s.model == .physical { return s }
        }
        return nil
    }
}

extension CloudsDraw: LayerDraw {}
