// Decoding and validating `meshGradient` layers: every mistake names its JSON path.

extension SceneLoader {
    /// Keys a `meshGradient` layer accepts besides the common ones.
    static let meshKeys = ["width", "height", "points", "bezierPoints", "colors", "background", "smoothsColors",
                           "animation", "colorKeyframes"]

    static func decodeMesh(_ object: ObjectReader, colorSpace: ColorSpace?) throws -> MeshGradient {
        let limit = MeshGradient.maximumVerticesPerSide
        let width = try object.required("width").integer(in: 2...limit, "a whole number of vertices in 2…\(limit)")
        let height = try object.required("height").integer(in: 2...limit, "a whole number of vertices in 2…\(limit)")
        let count = width * height
        let expected = "\(count) (width \(width) × height \(height))"

        func list(_ node: Node, _ what: String) throws -> [Node] {
            let items = try node.array()
            guard items.count == count else {
                throw node.error(.wrongCount, "expected \(expected) \(what), got \(items.count)")
            }
            return items
        }
        let vertices: MeshGradient.Vertices
        switch (object["points"], object["bezierPoints"]) {
        case (let p?, nil):
            vertices = .points(try list(p, "points").map(meshPoint))
        case (nil, let b?):
            vertices = .bezier(try list(b, "bezier points").map { item in
                let o = try item.object(["position", "leading", "top", "trailing", "bottom"])
                try o.checkKeys()
                return MeshBezierPoint(position: try meshPoint(o.required("position")),
                                       leading: try meshPoint(o.required("leading")), top: try meshPoint(o.required("top")),
                                       trailing: try meshPoint(o.required("trailing")), bottom: try meshPoint(o.required("bottom")))
            })
        case (_?, let b?):
            throw b.error(.invalidValue, "give either 'points' or 'bezierPoints', not both")
        case (nil, nil):
            throw object.node.error(.missingKey, "missing key 'points' (or 'bezierPoints'): \(expected) vertices")
        }
        var mesh = MeshGradient(width: width, height: height, vertices: vertices,
                                colors: try list(try object.required("colors"), "colors").map { try $0.color() })
        mesh.colorSpace = colorSpace
        if let n = object["background"] { mesh.background = try n.color() }
        if let n = object["smoothsColors"] { mesh.smoothsColors = try n.bool() }
        if let n = object["animation"] { mesh.animation = try decodeRandomWalk(n, vertexCount: count) }
        if let n = object["colorKeyframes"] {
            var last = 0.0
            mesh.colorKeyframes = try n.array().map { item in
                let o = try item.object(["time", "colors"])
                try o.checkKeys()
                let timeNode = try o.required("time")
                let time = try timeNode.number()
                guard time > last else {
                    throw timeNode.error(.outOfRange, "expected a time in seconds after \(format(last)) (keyframes in increasing order; `colors` is time 0), got \(format(time))")
                }
                last = time
                return MeshColorKeyframe(time: time, colors: try list(try o.required("colors"), "colors").map { try $0.color() })
            }
        }
        return mesh
    }

    /// A unit point whose coordinates lie within ±MeshGradient.coordinateLimit.
    static func meshPoint(_ node: Node) throws -> UnitPoint {
        let p = try node.unitPoint()
        let limit = MeshGradient.coordinateLimit
        guard abs(p.x) <= limit, abs(p.y) <= limit else {
            throw node.error(.outOfRange, "expected unit coordinates in −\(format(limit))…\(format(limit)), got [\(format(p.x)), \(format(p.y))]")
        }
        return p
    }

    static func decodeRandomWalk(_ node: Node, vertexCount: Int) throws -> MeshRandomWalk {
        let o = try node.object(["type", "interval", "step", "ranges", "spring"])
        try o.checkKeys()
        _ = try o.required("type").oneOf(["randomWalk"], "animation type")
        let intervalNode = try o.required("interval")
        let interval = try intervalNode.number(in: 0...86400, "a number of seconds in 0…86400")
        guard interval > 0 else { throw intervalNode.error(.outOfRange, "expected an interval > 0 seconds, got 0") }
        let step = try o.required("step").number(in: 0...1, "a unit distance in 0…1")
        var seen = Set<Int>()
        let ranges = try o.required("ranges").array().map { item -> MeshRandomWalk.Range in
            let r = try item.object(["index", "x", "y"])
            try r.checkKeys()
            let indexNode = try r.required("index")
            let index = try indexNode.integer(in: 0...(vertexCount - 1), "a vertex index in 0…\(vertexCount - 1)")
            guard seen.insert(index).inserted else { throw indexNode.error(.invalidValue, "vertex \(index) is listed twice") }
            func interval(_ key: String) throws -> ClosedRange<Double>? {
                guard let n = r[key] else { return nil }
                let pair = try n.pair()
                guard pair.x <= pair.y else { throw n.error(.outOfRange, "expected [min, max] with min ≤ max, got [\(format(pair.x)), \(format(pair.y))]") }
                let limit = MeshGradient.coordinateLimit
                guard abs(pair.x) <= limit, abs(pair.y) <= limit else {
                    throw n.error(.outOfRange, "expected unit coordinates in −\(format(limit))…\(format(limit))")
                }
                return pair.x...pair.y
            }
            return MeshRandomWalk.Range(index: index, x: try interval("x"), y: try interval("y"))
        }
        var walk = MeshRandomWalk(interval: interval, step: step, ranges: ranges)
        if let n = o["spring"] {
            let s = try n.object(["duration", "bounce"])
            try s.checkKeys()
            let durationNode = try s.required("duration")
            let duration = try durationNode.number(in: 0...60, "a duration in seconds, 0 < d ≤ 60")
            guard duration > 0 else { throw durationNode.error(.outOfRange, "expected a duration in seconds, 0 < d ≤ 60, got 0") }
            let bounce = try s["bounce"]?.number(in: -0.99...0.99, "a bounce in −0.99…0.99") ?? 0
            walk.spring = MeshSpring(duration: duration, bounce: bounce)
        }
        return walk
    }
}
