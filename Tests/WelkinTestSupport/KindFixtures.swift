// One small layer of every layer kind, for tests that walk `LayerKinds.all` (every kind decodes,
// resolves and draws on both renderers). A kind without a fixture here fails those tests.

import WelkinCore

public enum KindFixtures {
    /// A layer object of each kind's `type`, with the keys it needs and a few it draws with.
    public static let layers: [String: String] = {
        let aurora = Repository.root.appendingPathComponent("Scenes/aurora.frag").path
        var f: [String: String] = [
            "shader": ##"{"type": "shader", "fragment": "\##(aurora)", "uniforms": {"u_glow": [0.25, 1.0, 0.55], "u_crown": "#B04CFF", "u_speed": 1.0}}"##,
            "meshGradient": #"{"type": "meshGradient", "width": 2, "height": 2, "points": [[0, 0], [1, 0], [0, 1], [1, 1]], "colors": ["red", "blue", "green", "white"]}"#,
            "sky": #"{"type": "sky", "sunElevation": 10}"#,
            "cloudSprites": #"{"type": "cloudSprites", "count": 6}"#,
            "cloudCover": #"{"type": "cloudCover", "coverage": 0.6}"#,
            "clouds": #"{"type": "clouds", "coverage": 0.5}"#,
            "emitter": #"{"type": "emitter", "position": [0.5, 0.5], "cells": [{"birthRate": 50, "lifetime": 3, "velocity": 20, "spriteSize": 6, "color": "yellow"}]}"#,
            "text": #"{"type": "text", "string": "Sky", "size": 20, "position": [0.5, 0.5]}"#,
            "group": #"{"type": "group", "layers": [{"type": "radialGradient", "stops": ["red", "clear"]}], "mask": {"type": "text", "string": "Sky", "size": 20, "position": [0.5, 0.5]}, "shadow": {"radius": 2}}"#,
        ]
        for kind in ["linearGradient", "radialGradient", "angularGradient", "ellipticalGradient"] {
            f[kind] = #"{"type": "\#(kind)", "stops": ["red", "blue"]}"#
        }
        return f
    }()

    /// A 48×32 scene of the kind's fixture over an opaque background, at time 1.5 (particles live).
    public static func scene(_ type: String) throws -> Scene? {
        guard let layer = layers[type] else { return nil }
        return try SceneLoader.decode(##"{"size": [48, 32], "background": "#203040", "layers": [\##(layer)]}"##,
                                      file: "\(type)-fixture.json", directory: Repository.root.appendingPathComponent("Scenes").path)
    }
}
