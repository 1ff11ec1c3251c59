// Decoding and validating `meshGradient` layers: every mistake names its JSON path.

extension MeshGradient {
    static let kind = LayerKind("meshGradient", "SwiftUI's MeshGradient: a grid of width × height vertices joined by Coons patches (docs/mesh-gradients.md).", {
        let d = MeshGradient(width: 2, height: 2, vertices: .points([]), colors: [])
        let limit = maximumVerticesPerSide
        let count = 4...(limit * limit)
        return [
            Property("width", .integer(2...limit), required: true, live: false,
                     expected: "a whole number of vertices in 2…\(limit)", "Vertices per row."),
            Property("height", .integer(2...limit), required: true, live: false,
                     expected: "a whole number of vertices in 2…\(limit)", "Vertices per column."),
            Property("points", .array(KeyframeTables.unitPointType(-coordinateLimit...coordinateLimit), count: count), animatable: true,
                     "width × height vertex positions, row by row (or give bezierPoints); each may be keyframes or an animation."),
            Property("bezierPoints", .array(.object(MeshBezierPoint.properties), count: count), animatable: true,
                     "width × height vertices with their four Bézier handles, row by row."),
            Property("colors", .array(KeyframeTables.colorType, count: count), required: true, animatable: true,
                     "width × height vertex colours, row by row; each may be keyframes or an animation."),
            Property("background", .color, default: .color(d.background), "Drawn where the mesh does not cover the frame."),
            Property("smoothsColors", .bool, default: .bool(d.smoothsColors), "Bicubic (true) or bilinear (false) colour interpolation."),
            Property("animation", .object(MeshRandomWalk.properties), animatable: true,
                     "Seed 001's animation: vertices walk randomly within ranges, eased by a spring."),
            Property("colorKeyframes", .array(.object(MeshColorKeyframe.properties), count: 0...MeshColorKeyframe.maximumCount), animatable: true,
                     "Later colour sets; `colors` is time 0, colours interpolate between keyframes."),
        ]
    }(), groupable: true, draws: [MeshDraw.self]) { object, context in
        try SceneLoader.decodeMesh(object, colorSpace: context.colorSpace)
    }
}

extension MeshBezierPoint {
    public static let properties: PropertyTable = {
        let point = PropertyType.unitPoint(-MeshGradient.coordinateLimit...MeshGradient.coordinateLimit)
        return PropertyTable("meshBezierPoint", title: "mesh Bézier point", "A mesh vertex and its four Bézier handles (unit space).", [
            Property("position", point, required: true, "The vertex."),
            Property("leading", point, required: true, "The handle towards the previous vertex of the row."),
            Property("top", point, required: true, "The handle towards the vertex above."),
            Property("trailing", point, required: true, "The handle towards the next vertex of the row."),
            Property("bottom", point, required: true, "The handle towards the vertex below."),
        ])
    }()
}

extension MeshColorKeyframe {
    /// The most colour keyframes a mesh may have.
    public static let maximumCount = 256

    public static let properties = PropertyTable("meshColorKeyframe", title: "mesh colour keyframe", "The mesh's colours at a time.", [
        Property("time", .number(0...1e9), required: true, unit: "s", "When these colours are reached (after the previous keyframe)."),
        Property("colors", .array(.color, count: 4...(MeshGradient.maximumVerticesPerSide * MeshGradient.maximumVerticesPerSide)),
                 required: true, "width × height colours, row by row."),
    ])
}

extension MeshRandomWalk {
    /// The shortest interval between steps: one step per frame at 120 frames a second.
    public static let minimumInterval = 1.0 / 120

    public static let properties = PropertyTable("meshRandomWalk", title: "mesh random walk",
        "Every interval, each listed vertex steps randomly within its ranges; a spring eases it there.", [
        Property("type", .choice(["randomWalk"]), required: true, expected: "animation type", "The only animation type: randomWalk."),
        Property("interval", .number(minimumInterval...86400), required: true, unit: "s", expected: "a number of seconds in 1/120…86400",
                 "Seconds between steps: at least 1/120 (\(format(minimumInterval))), a step per frame at 120 fps."),
        Property("step", .number(0...1), required: true, unit: "unit", expected: "a unit distance in 0…1", "The largest step per interval."),
        Property("ranges", .array(.object(MeshRandomWalk.Range.properties), count: 0...(MeshGradient.maximumVerticesPerSide * MeshGradient.maximumVerticesPerSide)),
                 required: true, "The vertices that move, each with its x and y range."),
        Property("spring", .object(MeshSpring.properties), "The spring that eases each step (SwiftUI's .spring(duration:bounce:))."),
    ])
}

extension MeshRandomWalk.Range {
    public static let properties = PropertyTable("meshRandomWalkRange", title: "mesh walk range", "Where one vertex may wander.", [
        Property("index", .integer(0...(MeshGradient.maximumVerticesPerSide * MeshGradient.maximumVerticesPerSide - 1)), required: true,
                 "The vertex, counted row by row from 0."),
        Property("x", .interval(-MeshGradient.coordinateLimit...MeshGradient.coordinateLimit), "[min, max] of the vertex's x (fixed when absent)."),
        Property("y", .interval(-MeshGradient.coordinateLimit...MeshGradient.coordinateLimit), "[min, max] of the vertex's y (fixed when absent)."),
    ])
}

extension MeshSpring {
    public static let properties = PropertyTable("meshSpring", title: "mesh spring", "SwiftUI's spring(duration:bounce:).", [
        Property("duration", .number(0...60), required: true, unit: "s", expected: "a duration in seconds, 0 < d ≤ 60", "The spring's perceptual duration (> 0)."),
        Property("bounce", .number(-0.99...0.99), default: .number(0), expected: "a bounce in −0.99…0.99", "0 is critically damped; higher bounces more."),
    ])
}

extension SceneLoader {
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
        var pointAnimations: [Animated<SIMD2<Double>>]?
        switch (object["points"], object["bezierPoints"]) {
        case (let p?, nil):
            let animated = try list(p, "points").map(animatedMeshPoint)
            vertices = .points(animated.map { $0.value(at: 0) })
            if animated.contains(where: { if case .constant = $0 { return false } else { return true } }) { pointAnimations = animated }
        case (nil, let b?):
            vertices = .bezier(try list(b, "bezier points").map { item in
                let o = try item.object(MeshBezierPoint.properties)
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
        let colors = try list(try object.required("colors"), "colors").map { try $0.animatedColor() }
        var mesh = MeshGradient(width: width, height: height, vertices: vertices, colors: colors.map { $0.value(at: 0) })
        mesh.colorSpace = colorSpace
        mesh.pointAnimations = pointAnimations
        if colors.contains(where: { if case .constant = $0 { return false } else { return true } }) { mesh.colorAnimations = colors }
        if let v = try object.color("background") { mesh.background = v }
        if let v = try object.bool("smoothsColors") { mesh.smoothsColors = v }
        if let v = try object.decode("animation", { try decodeRandomWalk($0, vertexCount: count) }) { mesh.animation = v }
        if let n = object["colorKeyframes"] {
            var last = 0.0
            mesh.colorKeyframes = try n.array(count: 0...MeshColorKeyframe.maximumCount, "keyframes").map { item in
                let o = try item.object(MeshColorKeyframe.properties)
                try o.checkKeys()
                let timeNode = try o.required("time")
                let time = try timeNode.number()
                guard time > last else {
                    throw timeNode.error(.outOfRange, "expected a time in seconds after \(format(last)) (keyframes in increasing order; `colors` is time 0), got \(format(time))")
                }
                guard time <= 1e9 else { throw timeNode.error(.outOfRange, "expected a time in seconds in 0…1000000000, got \(format(time))") }
                last = time
                return MeshColorKeyframe(time: time, colors: try list(try o.required("colors"), "colors").map { try $0.color() })
            }
        }
        return mesh
    }

    /// A mesh vertex: a unit point (`meshPoint`), or keyframes or an animation of such points.
    static func animatedMeshPoint(_ node: Node) throws -> Animated<SIMD2<Double>> {
        if case .object = node.value.kind {
            let limit = MeshGradient.coordinateLimit
            return try node.animatedPoint(in: -limit...limit, allowsNumber: false)
        }
        return .constant(try meshPoint(node))
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
        let o = try node.object(MeshRandomWalk.properties)
        try o.checkKeys()
        _ = try o.required("type").oneOf(["randomWalk"], "animation type")
        let intervalNode = try o.required("interval")
        let interval = try intervalNode.number(in: MeshRandomWalk.minimumInterval...86400, "a number of seconds in 1/120…86400")
        let step = try o.required("step").number(in: 0...1, "a unit distance in 0…1")
        var seen = Set<Int>()
        let ranges = try o.required("ranges").array(count: 0...vertexCount, "ranges").map { item -> MeshRandomWalk.Range in
            let r = try item.object(MeshRandomWalk.Range.properties)
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
            let s = try n.object(MeshSpring.properties)
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
