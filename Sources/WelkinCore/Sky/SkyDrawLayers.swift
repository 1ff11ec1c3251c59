// A sky layer's parts in the frame's list of layer draws.

extension SkyDraw {
    /// Adds `part` to the frame's last layer when that is a SkyDraw without a part of its kind,
    /// otherwise starts a new one.
    public static func append(_ part: SkyPart, projection: SkyProjection? = nil, linear: Bool = false, to layers: inout [any LayerDraw]) {
        if var draw = layers.last as? SkyDraw, !draw.parts.contains(where: { $0.code == part.code }),
           part.ground == nil || draw.parts.allSatisfy({ $0.ground == nil || $0.ground == part.ground }) {
            // One night sky a pass (the shaders hold one): a second sky in the run keeps its gradient only.
            var part = part
            if draw.parts.contains(where: { $0.nightSky != nil }) { part.nightSky = nil }
            draw.parts.append(part)
            layers[layers.count - 1] = draw
        } else {
            layers.append(SkyDraw(parts: [part], projection: projection, linear: linear))
        }
    }
}
