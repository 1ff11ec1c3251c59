// ParticleStore: one cell's live particles, struct-of-arrays, and the hot update loop.
//
// Fourteen 4-byte fields per particle (56 bytes). Only position, velocity and age change per step;
// everything else a particle shows at age a (scale, angle, colour, sway) is a closed form of its
// birth values and a, computed once per frame for drawing. Dead particles are removed in order, so the
// arrays stay dense; capacity grows geometrically up to the layer's maxParticles and never shrinks,
// so a steady state allocates nothing.

/// The per-step constants of the exact integrator for dv/dt = a − k·v over a step of dt:
/// p += v·b + a·c, v = v·decay + a·b. With k = 0 these are b = dt, c = dt²/2, decay = 1.
public struct StepConstants: Sendable, Equatable {
    public var decay: Float
    public var b: Float
    public var c: Float
    public var acceleration: SIMD2<Float>

    public init(damping k: Double, dt: Double, acceleration: SIMD2<Double>) {
        if k > 0 {
            let e = Foundation.exp(-k * dt)
            decay = Float(e)
            b = Float((1 - e) / k)
            c = Float((dt - (1 - e) / k) / k)
        } else {
            decay = 1
            b = Float(dt)
            c = Float(dt * dt / 2)
        }
        self.acceleration = SIMD2<Float>(acceleration)
    }
}

import Foundation

/// The live particles of one cell.
public final class ParticleStore {
    public private(set) var count = 0
    public private(set) var capacity = 0

    // Changed every step.
    public private(set) var px: UnsafeMutablePointer<Float>
    public private(set) var py: UnsafeMutablePointer<Float>
    public private(set) var vx: UnsafeMutablePointer<Float>
    public private(set) var vy: UnsafeMutablePointer<Float>
    public private(set) var age: UnsafeMutablePointer<Float>
    // Fixed at birth.
    public private(set) var lifetime: UnsafeMutablePointer<Float>
    public private(set) var scale: UnsafeMutablePointer<Float>
    public private(set) var spin: UnsafeMutablePointer<Float>
    public private(set) var red: UnsafeMutablePointer<Float>
    public private(set) var green: UnsafeMutablePointer<Float>
    public private(set) var blue: UnsafeMutablePointer<Float>
    public private(set) var alpha: UnsafeMutablePointer<Float>
    public private(set) var phase: UnsafeMutablePointer<Float>
    /// The birth number within the cell (draw order: lower is older). Wraps after 2³² births.
    public private(set) var birth: UnsafeMutablePointer<UInt32>

    /// Per-particle values of cells that use them (`EmitterCell.usesExtras`), fixed at birth.
    public enum Extra: Int, CaseIterable {
        case endScale, startRotation, endRotation, endRed, endGreen, endBlue, endAlpha
        case radialAcceleration, tangentialAcceleration, startRadius, endRadius, orbitAngle, orbitSpeed
    }
    /// One array per `Extra` when the cell uses them, none otherwise.
    public private(set) var extras: [UnsafeMutablePointer<Float>]
    @inline(__always) public func extra(_ e: Extra) -> UnsafeMutablePointer<Float> { extras[e.rawValue] }

    public static let fieldCount = 14
    public static let bytesPerParticle = fieldCount * 4

    /// Bytes per particle of this store (56, plus 4 per extra).
    public var particleBytes: Int { (Self.fieldCount + extras.count) * 4 }

    public init(capacity: Int = 0, extras useExtras: Bool = false) {
        let c = max(capacity, 0)
        self.capacity = c
        extras = useExtras ? Extra.allCases.map { _ in .allocate(capacity: c) } : []
        px = .allocate(capacity: c); py = .allocate(capacity: c)
        vx = .allocate(capacity: c); vy = .allocate(capacity: c)
        age = .allocate(capacity: c); lifetime = .allocate(capacity: c)
        scale = .allocate(capacity: c); spin = .allocate(capacity: c)
        red = .allocate(capacity: c); green = .allocate(capacity: c)
        blue = .allocate(capacity: c); alpha = .allocate(capacity: c)
        phase = .allocate(capacity: c); birth = .allocate(capacity: c)
    }

    deinit { release() }

    private func release() {
        px.deallocate(); py.deallocate(); vx.deallocate(); vy.deallocate(); age.deallocate()
        lifetime.deallocate(); scale.deallocate(); spin.deallocate(); red.deallocate()
        green.deallocate(); blue.deallocate(); alpha.deallocate(); phase.deallocate(); birth.deallocate()
        for e in extras { e.deallocate() }
    }

    /// Bytes held by the arrays (capacity, not count).
    public var allocatedBytes: Int { capacity * particleBytes }

    /// A deep copy (for the simulation cache's checkpoints).
    public func copy() -> ParticleStore {
        let other = ParticleStore(capacity: capacity, extras: !extras.isEmpty)
        for (e, o) in zip(extras, other.extras) { o.update(from: e, count: count) }
        other.count = count
        other.px.update(from: px, count: count); other.py.update(from: py, count: count)
        other.vx.update(from: vx, count: count); other.vy.update(from: vy, count: count)
        other.age.update(from: age, count: count); other.lifetime.update(from: lifetime, count: count)
        other.scale.update(from: scale, count: count); other.spin.update(from: spin, count: count)
        other.red.update(from: red, count: count); other.green.update(from: green, count: count)
        other.blue.update(from: blue, count: count); other.alpha.update(from: alpha, count: count)
        other.phase.update(from: phase, count: count); other.birth.update(from: birth, count: count)
        return other
    }

    /// Makes room for `needed` particles, growing by an eighth (so at most 1/8 of the memory is
    /// slack: under 64 bytes per live particle) but never beyond `limit`.
    public func reserve(_ needed: Int, limit: Int) {
        guard needed > capacity else { return }
        let newCapacity = min(max(needed, capacity + capacity / 8, 64), max(limit, needed))
        func grow<T>(_ p: inout UnsafeMutablePointer<T>) {
            let q = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
            q.moveInitialize(from: p, count: count)
            p.deallocate()
            p = q
        }
        grow(&px); grow(&py); grow(&vx); grow(&vy); grow(&age); grow(&lifetime); grow(&scale)
        grow(&spin); grow(&red); grow(&green); grow(&blue); grow(&alpha); grow(&phase); grow(&birth)
        for e in extras.indices { grow(&extras[e]) }
        capacity = newCapacity
    }

    /// Appends one particle; the caller has reserved room.
    @inline(__always)
    public func append(position: SIMD2<Float>, velocity: SIMD2<Float>, age a: Float, lifetime l: Float,
                       scale s: Float, spin w: Float, color: SIMD4<Float>, phase ph: Float, birth n: UInt32) {
        let i = count
        precondition(i < capacity)
        px[i] = position.x; py[i] = position.y; vx[i] = velocity.x; vy[i] = velocity.y
        age[i] = a; lifetime[i] = l; scale[i] = s; spin[i] = w
        red[i] = color.x; green[i] = color.y; blue[i] = color.z; alpha[i] = color.w
        phase[i] = ph; birth[i] = n
        count = i + 1
    }

    /// Sets the extras of the particle just appended (`values` in `Extra` order).
    public func setExtras(_ values: [Float]) {
        precondition(values.count == extras.count && count > 0)
        for (e, v) in zip(extras, values) { e[count - 1] = v }
    }

    /// Advances every particle by one step: the hot loop. Returns whether any particle reached
    /// its lifetime (then `removeDead()` must run).
    @discardableResult
    public func integrate(_ k: StepConstants, dt: Float) -> Bool {
        integrate(k, dt: dt, range: 0..<count)
    }

    /// The hot loop over a sub-range (threads take disjoint ranges; the result does not depend on
    /// how the range is split).
    public func integrate(_ k: StepConstants, dt: Float, range: Range<Int>) -> Bool {
        ParticleKernel.step(px: px, py: py, vx: vx, vy: vy, age: age, lifetime: lifetime,
                            range: range, decay: k.decay, b: k.b, c: k.c,
                            ax: k.acceleration.x, ay: k.acceleration.y, dt: dt)
    }

    /// Advances particles of a cell with extras by one step (`CellKinematics`): one call of
    /// `ParticleKernel.advance` per particle. Returns whether any particle reached its lifetime.
    /// `placesOrbits` false: orbiting particles only age (their position is a closed form of age,
    /// computed when it is true), so skipped steps cost what the ballistic kernel's do.
    public func integrate(_ k: CellKinematics, dt: Float, range: Range<Int>, placesOrbits: Bool = true) -> Bool {
        switch k.motion {
        case .ballistic:
            return integrate(k.constants, dt: dt, range: range)
        case .orbit where !placesOrbits:
            var anyDead = false
            for i in range {
                let a = age[i] + dt
                age[i] = a
                if a >= lifetime[i] { anyDead = true }
            }
            return anyDead
        case .forces, .orbit:
            var anyDead = false
            for i in range {
                var p = ParticleKernel.Particle(position: SIMD2(px[i], py[i]), velocity: SIMD2(vx[i], vy[i]), age: age[i])
                if k.motion == .forces {
                    p = ParticleKernel.advance(p, radial: extra(.radialAcceleration)[i],
                                               tangential: extra(.tangentialAcceleration)[i], k.constants,
                                               centre: k.centre, dt: dt)
                } else {
                    p = ParticleKernel.orbit(age: age[i] + dt, lifetime: lifetime[i], startRadius: extra(.startRadius)[i],
                                             endRadius: extra(.endRadius)[i], angle: extra(.orbitAngle)[i],
                                             speed: extra(.orbitSpeed)[i], centre: k.centre)
                }
                px[i] = p.position.x; py[i] = p.position.y; vx[i] = p.velocity.x; vy[i] = p.velocity.y; age[i] = p.age
                if p.age >= lifetime[i] { anyDead = true }
            }
            return anyDead
        }
    }

    /// Removes every particle whose age reached its lifetime, keeping the others in their order
    /// (births append in birth order, so the store stays sorted by birth and drawing needs no
    /// sort; see `birthOrder()`). The result depends only on the particle set, never on threads.
    public func removeDead() {
        var i = 0
        while i < count && age[i] < lifetime[i] { i += 1 }
        var kept = i
        while i < count {
            if age[i] < lifetime[i] {
                px[kept] = px[i]; py[kept] = py[i]; vx[kept] = vx[i]; vy[kept] = vy[i]
                age[kept] = age[i]; lifetime[kept] = lifetime[i]; scale[kept] = scale[i]
                spin[kept] = spin[i]; red[kept] = red[i]; green[kept] = green[i]
                blue[kept] = blue[i]; alpha[kept] = alpha[i]; phase[kept] = phase[i]; birth[kept] = birth[i]
                for e in extras { e[kept] = e[i] }
                kept += 1
            }
            i += 1
        }
        count = kept
    }

    /// The store's indices sorted by birth number (the drawing order, oldest first), or nil when
    /// they are in that order already — always, unless birth numbers wrapped past 2³².
    public func birthOrder() -> [UInt32]? {
        var i = 1
        while i < count && birth[i - 1] < birth[i] { i += 1 }
        guard i < count else { return nil }
        var order = (0..<UInt32(count)).map { $0 }
        order.sort { birth[Int($0)] < birth[Int($1)] }
        return order
    }

    /// Empties the store, keeping its capacity.
    public func removeAll() { count = 0 }
}

/// How a cell's particles move each step.
public struct CellKinematics: Sendable, Equatable {
    public enum Motion: Sendable, Equatable {
        /// Constant acceleration (the fast kernel).
        case ballistic
        /// Plus each particle's radial and tangential acceleration about `centre`.
        case forces
        /// Circling `centre` (radial mode): a closed form of age.
        case orbit
    }
    public var motion: Motion
    public var constants: StepConstants
    /// The emitter's position, points.
    public var centre: SIMD2<Float>

    public init(motion: Motion, constants: StepConstants, centre: SIMD2<Float>) {
        self.motion = motion; self.constants = constants; self.centre = centre
    }
}

extension ParticleKernel {
    /// One particle's moving state.
    public struct Particle: Sendable, Equatable {
        public var position: SIMD2<Float>
        public var velocity: SIMD2<Float>
        public var age: Float
    }

    /// One step of a particle under the cell's constant acceleration plus its radial acceleration
    /// (along the unit vector from `centre` to the particle; none at the centre) and tangential
    /// acceleration (that vector turned 90° clockwise on screen), both taken at the start of the
    /// step and held over it with the exact integrator of `StepConstants`.
    @inline(__always)
    public static func advance(_ p: Particle, radial: Float, tangential: Float, _ k: StepConstants,
                               centre: SIMD2<Float>, dt: Float) -> Particle {
        let d = p.position - centre
        let length = (d * d).sum().squareRoot()
        let n = length > 0 ? d / length : SIMD2<Float>(0, 0)
        let a = k.acceleration + n * radial + SIMD2(-n.y, n.x) * tangential
        return Particle(position: p.position + p.velocity * k.b + a * k.c,
                        velocity: p.velocity * k.decay + a * k.b, age: p.age + dt)
    }

    /// A circling particle at `age`: radius linear from start to end over its life, angle
    /// advancing at `speed` rad/s from `angle`; the velocity is the path's derivative.
    @inline(__always)
    public static func orbit(age: Float, lifetime: Float, startRadius: Float, endRadius: Float, angle: Float,
                             speed: Float, centre: SIMD2<Float>) -> Particle {
        let u = lifetime > 0 ? min(age / lifetime, 1) : 1
        let r = startRadius + (endRadius - startRadius) * u
        let radiusRate = lifetime > 0 ? (endRadius - startRadius) / lifetime : 0
        let theta = Double(angle) + Double(speed) * Double(age)
        let direction = SIMD2<Float>(Float(Foundation.cos(theta)), Float(Foundation.sin(theta)))
        let tangent = SIMD2(-direction.y, direction.x)
        return Particle(position: centre + direction * r, velocity: direction * radiusRate + tangent * (r * speed), age: age)
    }
}

/// The update itself, on raw arrays: the Swift twin of Sources/CSimBaseline/sim_baseline.c.
public enum ParticleKernel {
    /// p += v·b + a·c; v = v·decay + a·b; age += dt — eight particles per iteration as two
    /// SIMD4 halves, so the seven splatted constants take one SSE register each (SIMD8 splats
    /// take two and spill on x86-64). Returns whether any particle in `range` now has age ≥ lifetime.
    @inline(__always)
    public static func step(px: UnsafeMutablePointer<Float>, py: UnsafeMutablePointer<Float>,
                            vx: UnsafeMutablePointer<Float>, vy: UnsafeMutablePointer<Float>,
                            age: UnsafeMutablePointer<Float>, lifetime: UnsafeMutablePointer<Float>,
                            range: Range<Int>, decay: Float, b: Float, c: Float,
                            ax: Float, ay: Float, dt: Float) -> Bool {
        typealias V = SIMD4<Float>
        let decay4 = V(repeating: decay), b4 = V(repeating: b), dt4 = V(repeating: dt)
        let cx4 = V(repeating: ax * c), cy4 = V(repeating: ay * c)
        let bx4 = V(repeating: ax * b), by4 = V(repeating: ay * b)
        var dead0 = SIMDMask<SIMD4<Int32>>(repeating: false), dead1 = dead0

        /// Four particles from index j.
        @inline(__always) func four(_ j: Int) -> SIMDMask<SIMD4<Int32>> {
            let x = UnsafeRawPointer(px + j).loadUnaligned(as: V.self)
            let y = UnsafeRawPointer(py + j).loadUnaligned(as: V.self)
            let u = UnsafeRawPointer(vx + j).loadUnaligned(as: V.self)
            let v = UnsafeRawPointer(vy + j).loadUnaligned(as: V.self)
            let a = UnsafeRawPointer(age + j).loadUnaligned(as: V.self) + dt4
            UnsafeMutableRawPointer(px + j).storeBytes(of: x + u * b4 + cx4, as: V.self)
            UnsafeMutableRawPointer(py + j).storeBytes(of: y + v * b4 + cy4, as: V.self)
            UnsafeMutableRawPointer(vx + j).storeBytes(of: u * decay4 + bx4, as: V.self)
            UnsafeMutableRawPointer(vy + j).storeBytes(of: v * decay4 + by4, as: V.self)
            UnsafeMutableRawPointer(age + j).storeBytes(of: a, as: V.self)
            return a .>= UnsafeRawPointer(lifetime + j).loadUnaligned(as: V.self)
        }
        var i = range.lowerBound
        let end = range.upperBound
        while i &+ 8 <= end {
            dead0 .|= four(i)
            dead1 .|= four(i &+ 4)
            i &+= 8
        }
        let dead = dead0 .| dead1
        var anyDead = any(dead)
        let cx = ax * c, cy = ay * c, bx = ax * b, by = ay * b
        while i < end {
            let u = vx[i], v = vy[i]
            px[i] = px[i] + u * b + cx
            py[i] = py[i] + v * b + cy
            vx[i] = u * decay + bx
            vy[i] = v * decay + by
            let a = age[i] + dt
            age[i] = a
            if a >= lifetime[i] { anyDead = true }
            i += 1
        }
        return anyDead
    }
}
