// web-runtime.js: draws a scene that `welkin export-web` wrote as a page, with WebGL2.
//
// The page holds, as JSON (#welkin-data): the programs (Welkin's GLSL translated to GLSL ES 3.00
// through SPIR-V), the scene's values, the images its shaders sample, and what was left out. This
// file computes each frame's uniforms from the scene time and the canvas's size, as GLRenderer
// does, and draws the passes it draws: every layer blended (ONE, ONE_MINUS_SRC_ALPHA) into a float
// target cleared to the background, then the resolve pass (output transform, the CPU's dither)
// into the canvas. docs/export.md describes the page; WebExport.swift writes it.
//
// URL parameters: t=SECONDS starts the clock there; paused (or still) stops it there;
// framing=contain|cover|stretch overrides the export's framing (welkin render --fit's modes).

(function () {
  'use strict';

  const data = JSON.parse(document.getElementById('welkin-data').textContent);
  const canvas = document.getElementById('welkin');
  const stage = document.getElementById('welkin-stage');
  const query = new URLSearchParams(location.search);

  /** Shows `message` over the page and stops. */
  function fail(message) {
    const box = document.createElement('div');
    box.id = 'welkin-error';
    box.textContent = 'Welkin: ' + message;
    document.body.appendChild(box);
    document.documentElement.dataset.welkinError = message;
    throw new Error(message);
  }

  for (const w of data.warnings) console.warn('Welkin export: ' + w);

  const gl = canvas.getContext('webgl2', {
    alpha: true, premultipliedAlpha: false, antialias: false, depth: false, stencil: false,
    preserveDrawingBuffer: true, powerPreference: 'high-performance',
  });
  if (!gl) fail('this browser has no WebGL2.');
  if (!gl.getExtension('EXT_color_buffer_float')) fail('this browser cannot draw into float textures (EXT_color_buffer_float).');
  // Welkin composites in 32-bit float; blending into 32-bit float needs EXT_float_blend, else 16-bit.
  const floatBlend = !!gl.getExtension('EXT_float_blend');
  const accumulationFormat = floatBlend ? gl.RGBA32F : gl.RGBA16F;
  // Shader buffers are RGBA32F, as in Welkin; sampling them with linear filtering needs
  // OES_texture_float_linear, else they are RGBA16F (filterable everywhere).
  const bufferFormat = gl.getExtension('OES_texture_float_linear') ? gl.RGBA32F : gl.RGBA16F;
  if (data.outputSpace === 'display-p3' && 'drawingBufferColorSpace' in gl) gl.drawingBufferColorSpace = 'display-p3';
  gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);

  // ---- Programs -------------------------------------------------------------------------------

  function compile(type, text, key) {
    const s = gl.createShader(type);
    gl.shaderSource(s, text);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) fail(key + ': ' + gl.getShaderInfoLog(s));
    return s;
  }

  /** A program and its active uniforms: name (without [0]) → {location, type, size}. */
  function link(p) {
    const program = gl.createProgram();
    gl.attachShader(program, compile(gl.VERTEX_SHADER, p.vertex, p.key + ' (vertex)'));
    gl.attachShader(program, compile(gl.FRAGMENT_SHADER, p.fragment, p.key));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) fail(p.key + ': ' + gl.getProgramInfoLog(program));
    const uniforms = {};
    const count = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < count; i++) {
      const info = gl.getActiveUniform(program, i);
      const name = info.name.replace(/\[0\]$/, '');
      uniforms[name] = { location: gl.getUniformLocation(program, info.name), type: info.type, size: info.size };
    }
    return { program, uniforms, key: p.key };
  }

  // Setters by name that do nothing when the program does not use the uniform (as GLRenderer's).
  function set1f(p, name, x) { const u = p.uniforms[name]; if (u) gl.uniform1f(u.location, x); }
  function set1i(p, name, x) { const u = p.uniforms[name]; if (u) gl.uniform1i(u.location, x); }
  function set2f(p, name, x, y) { const u = p.uniforms[name]; if (u) gl.uniform2f(u.location, x, y); }
  function set3f(p, name, x, y, z) { const u = p.uniforms[name]; if (u) gl.uniform3f(u.location, x, y, z); }
  function set4f(p, name, v) { const u = p.uniforms[name]; if (u) gl.uniform4f(u.location, v[0], v[1], v[2], v[3]); }
  function set1fv(p, name, v) { const u = p.uniforms[name]; if (u) gl.uniform1fv(u.location, new Float32Array(v)); }
  function set3fv(p, name, v) { const u = p.uniforms[name]; if (u) gl.uniform3fv(u.location, new Float32Array(v)); }
  function set4fv(p, name, v) { const u = p.uniforms[name]; if (u) gl.uniform4fv(u.location, new Float32Array(v)); }

  // ---- Targets --------------------------------------------------------------------------------

  /** A float target: texture and framebuffer, read with texelFetch (nearest, no mipmaps). */
  function makeTarget(width, height, format) {
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, format, width, height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) fail('cannot draw into a ' + width + '×' + height + ' float target.');
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    return { texture, framebuffer, width, height };
  }

  function freeTarget(t) {
    if (!t) return;
    gl.deleteTexture(t.texture);
    gl.deleteFramebuffer(t.framebuffer);
  }

  /** Binds `texture` on `unit` with no sampler object (its own parameters). */
  function bindTexture(unit, texture) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.bindSampler(unit, null);
    gl.activeTexture(gl.TEXTURE0);
  }

  // ---- Images (shader channels) ---------------------------------------------------------------

  function decodeBase64(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /** Uploads each embedded PNG as ChannelTextures does: RGBA8, mipmaps, vflip putting the top row at t = 1. */
  async function loadTextures() {
    return Promise.all(data.textures.map(async (t) => {
      const blob = new Blob([decodeBase64(t.png)], { type: 'image/png' });
      const bitmap = await createImageBitmap(blob, {
        imageOrientation: t.vflip ? 'flipY' : 'from-image', premultiplyAlpha: 'none', colorSpaceConversion: 'none',
      });
      const texture = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
      gl.generateMipmap(gl.TEXTURE_2D);
      gl.bindTexture(gl.TEXTURE_2D, null);
      bitmap.close();
      return { texture, width: t.width, height: t.height };
    }));
  }

  const samplers = {};
  /** The sampler object of a channel's filter and wrap (made once). */
  function sampler(filter, wrap) {
    const key = filter + ' ' + wrap;
    if (samplers[key]) return samplers[key];
    const s = gl.createSampler();
    const [min, mag] = filter === 'nearest' ? [gl.NEAREST, gl.NEAREST]
      : filter === 'linear' ? [gl.LINEAR, gl.LINEAR] : [gl.LINEAR_MIPMAP_LINEAR, gl.LINEAR];
    const mode = wrap === 'clamp' ? gl.CLAMP_TO_EDGE : gl.REPEAT;
    gl.samplerParameteri(s, gl.TEXTURE_MIN_FILTER, min);
    gl.samplerParameteri(s, gl.TEXTURE_MAG_FILTER, mag);
    gl.samplerParameteri(s, gl.TEXTURE_WRAP_S, mode);
    gl.samplerParameteri(s, gl.TEXTURE_WRAP_T, mode);
    gl.samplerParameteri(s, gl.TEXTURE_WRAP_R, mode);
    samplers[key] = s;
    return s;
  }

  // ---- Frame values ---------------------------------------------------------------------------

  /** Welkin's frame number at scene time t (Frame.frameNumber: 60 a second). */
  function frameNumber(t) { return isFinite(t) ? Math.floor(Math.max(-1e15, Math.min(1e15, t * 60))) : 0; }

  /** Shadertoy's iDate from a fixed clock [unix seconds, UTC offset] + t (Shadertoy.date). */
  function shadertoyDate(clock, t) {
    const local = Math.min(Math.max(clock[0] + clock[1] + (isFinite(t) ? t : 0), -1e13), 1e13);
    const days = Math.floor(local / 86400);
    const d = new Date(days * 86400000);
    return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), local - days * 86400];
  }

  /** GradientDraw's uniforms at a pixel size and scale (GradientDraw.init). */
  function gradientUniforms(g, size, scale) {
    const p = g.points, n = g.numbers;
    const cx = p[0] * size[0], cy = p[1] * size[1];
    switch (g.shape) {
      case 'linear': {
        const sx = p[0] * size[0], sy = p[1] * size[1];
        const dx = p[2] * size[0] - sx, dy = p[3] * size[1] - sy;
        const l2 = dx * dx + dy * dy;
        return { origin: [sx, sy], vector: l2 > 0 ? [dx / l2, dy / l2] : [0, 0], range: [0, 0] };
      }
      case 'radial':
        return { origin: [cx, cy], vector: [1 / scale[0], 1 / scale[1]], range: [n[0], n[1] !== n[0] ? 1 / (n[1] - n[0]) : 1e30] };
      case 'elliptical':
        return { origin: [cx, cy], vector: [1 / size[0], 1 / size[1]], range: [n[0], n[1] !== n[0] ? 1 / (n[1] - n[0]) : 1e30] };
      default:
        return { origin: [cx, cy], vector: [0, 0], range: [n[0] * Math.PI / 180, (n[1] - n[0]) * Math.PI / 180] };
    }
  }

  // ---- Animation (Timing, Keyframes, Transition, Animated; colours mixed as RGBA.mix) ---------

  /** Easing.bezier: y at x on Core Animation's cubic from (0, 0) to (1, 1), x found by bisection. */
  function bezier(x, x1, y1, x2, y2) {
    const coordinate = (s, p1, p2) => { const u = 1 - s; return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s; };
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    let low = 0, high = 1;
    for (let i = 0; i < 48; i++) { const mid = (low + high) / 2; if (coordinate(mid, x1, x2) < x) low = mid; else high = mid; }
    return coordinate((low + high) / 2, y1, y2);
  }

  /** Timing.displacement: the damped oscillator's distance still to go. */
  function displacement(t, w, z, v) {
    if (z < 1) {
      const wd = w * Math.sqrt(1 - z * z);
      return Math.exp(-z * w * t) * (Math.cos(wd * t) + (z * w - v) / wd * Math.sin(wd * t));
    }
    if (z === 1) return Math.exp(-w * t) * (1 + (w - v) * t);
    const s = Math.sqrt(z * z - 1);
    const r1 = -w * (z - s), r2 = -w * (z + s);
    const c2 = (-v - r1) / (r2 - r1), c1 = 1 - c2;
    return c1 * Math.exp(r1 * t) + c2 * Math.exp(r2 * t);
  }

  const timingDuration = (timing) => (timing.curve ? timing.curve[4] : timing.spring[3]);

  /** Timing.progress at t seconds. */
  function timingProgress(timing, t) {
    if (!(t > 0)) return 0;
    if (timing.curve) {
      const [x1, y1, x2, y2, d] = timing.curve;
      if (!(d > 0)) return 1;
      if (x1 === y1 && x2 === y2) return Math.min(t / d, 1);
      return bezier(Math.min(t / d, 1), x1, y1, x2, y2);
    }
    const [w, z, v] = timing.spring;
    return 1 - displacement(t, w, z, v);
  }

  /** Animated.value: a constant, keyframes or a transition at scene time t. */
  function animatedValue(a, t, mix) {
    if ('constant' in a) return a.constant;
    if (a.keyframes) {
      const k = a.keyframes, first = k.times[0], last = k.times[k.times.length - 1];
      let time = isFinite(t) ? t : first;
      if (k.repeats && last > first) { const period = last - first; time = first + (time - first - period * Math.floor((time - first) / period)); }
      if (time <= first) return k.values[0];
      if (time >= last) return k.values[k.values.length - 1];
      let i = 0;
      while (time >= k.times[i + 1]) i++;
      const f = (time - k.times[i]) / (k.times[i + 1] - k.times[i]);
      const curve = (i < k.segments.length ? k.segments[i] : null) || k.easing;
      return mix(k.values[i], k.values[i + 1], timingProgress(curve, f * timingDuration(curve)));
    }
    const tr = a.transition;
    const local = ((isFinite(t) ? t : 0) - tr.delay) * tr.speed;
    let progress = 0;
    if (local > 0) {
      const d = timingDuration(tr.timing);
      if ((tr.repetition === 'once' && !tr.autoreverses) || !(d > 0)) {
        progress = timingProgress(tr.timing, local);
      } else {
        const passes = tr.repetition === 'once' ? (tr.autoreverses ? 2 : 1) : tr.repetition === 'forever' ? Infinity : Math.max(tr.repetition, 1);
        const index = Math.min(Math.floor(local / d), passes - 1);
        const within = Math.min(local - index * d, d);
        const backward = tr.autoreverses && Math.trunc(index % 2) === 1;
        progress = timingProgress(tr.timing, backward ? d - within : within);
      }
    }
    return mix(tr.from, tr.to, progress);
  }

  const mixNumber = (a, b, f) => a + (b - a) * f;
  const mixPoint = (a, b, f) => [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
  const clamp01 = (v) => Math.min(Math.max(v, 0), 1);

  // ColorMath in float32, as WelkinCore computes it.
  const F = (x) => f32(x);
  function srgbToLinear(c) {
    const a = Math.abs(c);
    const v = a <= F(0.04045) ? f32(a / F(12.92)) : f32(Math.pow(f32(f32(a + F(0.055)) / F(1.055)), F(2.4)));
    return c < 0 ? -v : v;
  }
  function linearToSRGB(c) {
    const a = Math.abs(c);
    const v = a <= F(0.0031308) ? f32(a * F(12.92)) : f32(f32(F(1.055) * f32(Math.pow(a, f32(1 / F(2.4))))) - F(0.055));
    return c < 0 ? -v : v;
  }
  const dot3 = (k, x, y, z) => f32(f32(f32(F(k[0]) * x) + f32(F(k[1]) * y)) + f32(F(k[2]) * z));
  function linearToOklab([x, y, z]) {
    const l = f32(Math.cbrt(dot3([0.4122214708, 0.5363325363, 0.0514459929], x, y, z)));
    const m = f32(Math.cbrt(dot3([0.2119034982, 0.6806995451, 0.1073969566], x, y, z)));
    const s = f32(Math.cbrt(dot3([0.0883024619, 0.2817188376, 0.6299787005], x, y, z)));
    return [dot3([0.2104542553, 0.7936177850, -0.0040720468], l, m, s), dot3([1.9779984951, -2.4285922050, 0.4505937099], l, m, s),
      dot3([0.0259040371, 0.7827717662, -0.8086757660], l, m, s)];
  }
  function oklabToLinear([L, a, b]) {
    const l_ = dot3([1, 0.3963377774, 0.2158037573], L, a, b), m_ = dot3([1, -0.1055613458, -0.0638541728], L, a, b);
    const s_ = dot3([1, -0.0894841775, -1.2914855480], L, a, b);
    const l = f32(f32(l_ * l_) * l_), m = f32(f32(m_ * m_) * m_), s = f32(f32(s_ * s_) * s_);
    return [dot3([4.0767416621, -3.3077115913, 0.2309699292], l, m, s), dot3([-1.2684380046, 2.6097574011, -0.3413193965], l, m, s),
      dot3([-0.0041960863, -0.7034186147, 1.7076147010], l, m, s)];
  }
  const SRGB = 0, LINEAR = 1, OKLAB = 2;   // ColorSpace.code

  /** RGBA.mix: straight colours mixed in `space`, alpha linearly. */
  function mixColor(space) {
    const to = (c) => {
      if (space === SRGB) return [c[0], c[1], c[2]];
      const linear = [srgbToLinear(F(c[0])), srgbToLinear(F(c[1])), srgbToLinear(F(c[2]))];
      return space === LINEAR ? linear : linearToOklab(linear);
    };
    return (a, b, f) => {
      const alpha = a[3] + (b[3] - a[3]) * f;
      const ta = to(a), tb = to(b);
      const v = [0, 1, 2].map((i) => ta[i] + (tb[i] - ta[i]) * f);
      if (space === SRGB) return [v[0], v[1], v[2], alpha];
      const linear = space === LINEAR ? v.map(F) : oklabToLinear(v.map(F));
      return [linearToSRGB(linear[0]), linearToSRGB(linear[1]), linearToSRGB(linear[2]), alpha];
    };
  }

  /** ColorMath.toInterpolationSpace: a straight colour as premultiplied floats in `space`. */
  function toInterpolationSpace(c, space) {
    let rgb = [F(c[0]), F(c[1]), F(c[2])];
    const a = F(c[3]);
    if (space !== SRGB) { rgb = rgb.map(srgbToLinear); if (space === OKLAB) rgb = linearToOklab(rgb); }
    return [f32(rgb[0] * a), f32(rgb[1] * a), f32(rgb[2] * a), a];
  }

  /** A straight colour premultiplied (RGBA.premultiplied) and × a float opacity. */
  const premultiplied = (c, opacity) => [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]].map((v) => f32(f32(v) * f32(opacity)));

  /** The layer's opacity at t: its animation clamped to 0…1 (Layer.at), else its value. */
  function opacityAt(n, t) {
    if (n.opacityAnimation) return clamp01(animatedValue(n.opacityAnimation, t, mixNumber));
    return Array.isArray(n.opacity) ? n.opacity[0] : n.opacity;
  }

  const kernels = new Map();
  /** ShadowDraw.kernel: a Gaussian's half (centre first), whole 65536ths summing to 1. */
  function shadowKernel(sigma) {
    if (kernels.has(sigma)) return kernels.get(sigma);
    let weights = [1];
    if (sigma >= 0.05) {
      const scale = 65536, taps = Math.min(Math.ceil(3 * sigma), 192);
      const gauss = [];
      for (let k = 0; k <= taps; k++) gauss.push(Math.exp(-(k * k) / (2 * sigma * sigma)));
      let rest = 0;
      for (let k = 1; k <= taps; k++) rest += gauss[k];
      const total = gauss[0] + 2 * rest;
      const exact = gauss.map((g) => g / total * scale);
      const w = exact.map(Math.floor);
      let sum = 0;
      for (let k = 1; k < w.length; k++) sum += w[k];
      let left = scale - w[0] - 2 * sum;
      const order = exact.map((_, k) => k).sort((a, b) => (exact[b] - w[b]) - (exact[a] - w[a]) || a - b);
      for (const k of order) { const cost = k === 0 ? 1 : 2; if (left >= cost) { w[k] += 1; left -= cost; } }
      w[0] += left;
      while (w.length > 1 && w[w.length - 1] === 0) w.pop();
      weights = w.map((x) => f32(f32(x) / scale));
    }
    kernels.set(sigma, weights);
    return weights;
  }

  /** ShadowDraw at time t and the canvas's scale. */
  function shadowAt(shadow, t, scale, space) {
    const color = animatedValue(shadow.color, t, mixColor(space));
    const opacity = clamp01(animatedValue(shadow.opacity, t, mixNumber));
    const radius = Math.min(Math.max(animatedValue(shadow.radius, t, mixNumber), 0), 64);
    const round = (x) => (x < 0 ? -Math.round(-x) : Math.round(x));
    return {
      color: premultiplied(color, opacity),
      offset: [round(shadow.offset[0] * scale[0]), round(shadow.offset[1] * scale[1])],
      horizontal: shadowKernel(radius * scale[0] / 2), vertical: shadowKernel(radius * scale[1] / 2),
    };
  }

  /** LayerAffine: the inverse (picture = m · pixel centre + offset, floats) and the forward map; null when singular. */
  function layerAffine(offset, s, degrees, anchor, p) {
    const theta = degrees * Math.PI / 180;
    const c = Math.cos(theta), sn = Math.sin(theta);
    const rs = [c * s[0], -sn * s[1], sn * s[0], c * s[1]];
    const a = [rs[0], rs[1] * p[0] / p[1], rs[2] * p[1] / p[0], rs[3]];
    const det = a[0] * a[3] - a[1] * a[2];
    if (!isFinite(det) || !(Math.abs(det) > 1e-9)) return null;
    const m = [a[3] / det, -a[1] / det, -a[2] / det, a[0] / det];
    const moved = [anchor[0] + offset[0] * p[0], anchor[1] + offset[1] * p[1]];
    const back = [m[0] * moved[0] + m[1] * moved[1], m[2] * moved[0] + m[3] * moved[1]];
    const turned = [a[0] * anchor[0] + a[1] * anchor[1], a[2] * anchor[0] + a[3] * anchor[1]];
    const forwardOffset = [moved[0] - turned[0], moved[1] - turned[1]];
    return {
      inverse: m.map(f32), inverseOffset: [f32(anchor[0] - back[0]), f32(anchor[1] - back[1])],
      identity: a[0] === 1 && a[1] === 0 && a[2] === 0 && a[3] === 1 && forwardOffset[0] === 0 && forwardOffset[1] === 0,
    };
  }

  /** A transformed layer (Frame.resolveGroupable): as without the transform while at rest, else
   *  its group's picture resampled through the transform, with the layer's shadow and opacity. */
  function drawTransformed(layer, t, size, scale, depth) {
    const offset = animatedValue(layer.offset, t, mixPoint), s = animatedValue(layer.scale, t, mixPoint);
    const rotation = animatedValue(layer.rotation, t, mixNumber);
    if (s[0] === 1 && s[1] === 1 && rotation === 0 && offset[0] === 0 && offset[1] === 0 && !layer.isGroup) {
      return drawNode(layer.plain, t, size, scale, depth);
    }
    const content = layer.isGroup ? layer.moved : layer.moved.layers[0];
    const box = content.kind === 'glyphs' && content.layouts[scaleIndex(size)] ? content.layouts[scaleIndex(size)].box : [0, 0, size[0], size[1]];
    const anchor = [box[0] + layer.anchor[0] * (box[2] - box[0]), box[1] + layer.anchor[1] * (box[3] - box[1])];
    const affine = layerAffine(offset, s, rotation, anchor, scale);
    drawGroup(layer.moved, t, size, scale, depth, {
      transform: affine && !affine.identity ? affine : null, shadow: layer.shadow, opacity: affine ? opacityAt(layer, t) : 0,
    });
  }

  // ---- Meshes (MeshDraw, MeshRandomWalk, MeshGeometry, MeshPatch: the same maths, in doubles) ---

  const MASK64 = (1n << 64n) - 1n;

  /** MeshRandomWalk.sign: ±1 from SplitMix64's finaliser over (seed, vertex, tick, axis). */
  function walkSign(seed, vertex, tick, axis) {
    let z = (seed * 0x9E3779B97F4A7C15n) & MASK64;
    z ^= (BigInt.asUintN(64, BigInt(vertex)) * 0xBF58476D1CE4E5B9n) & MASK64;
    z ^= (BigInt.asUintN(64, BigInt(tick)) * 0x94D049BB133111EBn) & MASK64;
    z ^= (BigInt.asUintN(64, BigInt(axis)) + 0x2545F4914F6CDD1Dn) & MASK64;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK64;
    z ^= z >> 31n;
    return (z >> 63n) === 0n ? 1 : -1;
  }

  /** MeshSpring.advance: the damped oscillator's exact solution dt seconds on. */
  function springAdvance(spring, x, v, target, dt) {
    if (!(dt > 0)) return [x, v];
    const w0 = 2 * Math.PI / spring.duration;
    const zeta = spring.bounce >= 0 ? 1 - spring.bounce : 1 / (1 + spring.bounce);
    const y0 = x - target;
    if (zeta < 1) {
      const wd = w0 * Math.sqrt(1 - zeta * zeta);
      const decay = Math.exp(-zeta * w0 * dt);
      const c = Math.cos(wd * dt), s = Math.sin(wd * dt);
      const b = (v + zeta * w0 * y0) / wd;
      const y = decay * (y0 * c + b * s);
      const dy = decay * ((b * wd - zeta * w0 * y0) * c - (y0 * wd + zeta * w0 * b) * s);
      return [target + y, dy];
    } else if (zeta === 1) {
      const decay = Math.exp(-w0 * dt);
      const b = v + w0 * y0;
      return [target + decay * (y0 + b * dt), decay * (b - w0 * (y0 + b * dt))];
    }
    const root = Math.sqrt(zeta * zeta - 1);
    const r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root);
    const a = (v - r2 * y0) / (r1 - r2), b = y0 - a;
    const e1 = Math.exp(r1 * dt), e2 = Math.exp(r2 * dt);
    return [target + a * e1 + b * e2, a * r1 * e1 + b * r2 * e2];
  }

  /** MeshRandomWalk.positions. Each axis keeps its spring's state at its last tick, so a playing
   *  page advances only the new ticks (the same sequence of operations as from the start). */
  function walkPositions(layer, start, time) {
    const w = layer.walk;
    const out = start.slice();
    if (!w) return out;
    const t = isFinite(time) ? Math.max(0, time) : 0;
    const ticks = Math.min(Math.floor(t / w.interval), w.tickLimit);
    const seed = BigInt(layer.seed);
    layer.walkState = layer.walkState || {};
    w.ranges.forEach((r, ri) => {
      if (r.index >= start.length) return;
      const p = start[r.index].slice();
      [r.x, r.y].forEach((limits, axis) => {
        if (!limits) return;
        const key = ri + ':' + axis, s0 = start[r.index][axis];
        let s = layer.walkState[key];
        if (!s || s.k > ticks) s = layer.walkState[key] = { k: 0, x: s0, v: 0, target: s0, last: 0 };
        for (let k = s.k + 1; k <= ticks; k++) {
          const at = k * w.interval;
          [s.x, s.v] = springAdvance(w, s.x, s.v, s.target, at - s.last);
          s.last = at;
          s.target = Math.min(Math.max(s.target + walkSign(seed, r.index, k, axis) * w.step, limits[0]), limits[1]);
        }
        s.k = Math.max(s.k, ticks);
        p[axis] = springAdvance(w, s.x, s.v, s.target, t - s.last)[0];
      });
      out[r.index] = p;
    });
    return out;
  }

  const add = (a, b) => [a[0] + b[0], a[1] + b[1]];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];
  const mul = (k, a) => [k * a[0], k * a[1]];

  /** MeshGeometry.automaticHandles: Catmull-Rom handles along rows and columns. */
  function automaticHandles(p, width, height) {
    const out = [];
    for (let j = 0; j < height; j++) {
      for (let i = 0; i < width; i++) {
        const here = p[j * width + i];
        const handles = (previous, next) => {
          if (previous && next) { const d = [(next[0] - previous[0]) / 6, (next[1] - previous[1]) / 6]; return [sub(here, d), add(here, d)]; }
          if (next) { const d = [(next[0] - here[0]) / 3, (next[1] - here[1]) / 3]; return [sub(here, d), add(here, d)]; }
          if (previous) { const d = [(here[0] - previous[0]) / 3, (here[1] - previous[1]) / 3]; return [sub(here, d), add(here, d)]; }
          return [here, here];
        };
        const row = handles(i > 0 ? p[j * width + i - 1] : null, i < width - 1 ? p[j * width + i + 1] : null);
        const column = handles(j > 0 ? p[(j - 1) * width + i] : null, j < height - 1 ? p[(j + 1) * width + i] : null);
        out.push({ position: here, leading: row[0], top: column[0], trailing: row[1], bottom: column[1] });
      }
    }
    return out;
  }

  /** MeshDraw.vertices: the Bézier vertices at time t. */
  function meshVertices(layer, time) {
    const v = layer.vertices, n = layer.width * layer.height;
    if (layer.vertexKind === 'points') {
      // MeshGradient.at: animated points replace the given ones; the walk starts from them.
      const start = [];
      for (let i = 0; i < n; i++) start.push(layer.pointAnimations ? animatedValue(layer.pointAnimations[i], time, mixPoint) : [v[2 * i], v[2 * i + 1]]);
      return automaticHandles(walkPositions(layer, start, time), layer.width, layer.height);
    }
    const given = [];
    for (let i = 0; i < n; i++) {
      const q = (k) => [v[10 * i + 2 * k], v[10 * i + 2 * k + 1]];
      given.push({ position: q(0), leading: q(1), top: q(2), trailing: q(3), bottom: q(4) });
    }
    const start = given.map((b) => b.position);
    const moved = walkPositions(layer, start, time);
    return given.map((b, i) => {
      const d = sub(moved[i], start[i]);
      return { position: add(b.position, d), leading: add(b.leading, d), top: add(b.top, d), trailing: add(b.trailing, d), bottom: add(b.bottom, d) };
    });
  }

  /** MeshPatch(top:bottom:left:right:): a Coons patch as 16 control points, p[k * 4 + l]. */
  function coonsPatch(top, bottom, left, right) {
    const p = new Array(16);
    for (let k = 0; k < 4; k++) { p[k * 4] = top[k]; p[k * 4 + 3] = bottom[k]; }
    for (let l = 0; l < 4; l++) { p[l] = left[l]; p[12 + l] = right[l]; }
    for (let k = 1; k <= 2; k++) {
      for (let l = 1; l <= 2; l++) {
        const s = k / 3, t = l / 3;
        const rows = add(mul(1 - t, p[k * 4]), mul(t, p[k * 4 + 3]));
        const columns = add(mul(1 - s, p[l]), mul(s, p[12 + l]));
        const corners = add(add(add(mul((1 - s) * (1 - t), p[0]), mul(s * (1 - t), p[12])), mul((1 - s) * t, p[3])), mul(s * t, p[15]));
        p[k * 4 + l] = sub(add(rows, columns), corners);
      }
    }
    return p;
  }

  /** MeshGeometry.patches, in pixels. */
  function meshPatches(v, width, height, size) {
    const px = (u) => [u[0] * size[0], u[1] * size[1]];
    const out = [];
    for (let j = 0; j < height - 1; j++) {
      for (let i = 0; i < width - 1; i++) {
        const a = v[j * width + i], b = v[j * width + i + 1], c = v[(j + 1) * width + i], d = v[(j + 1) * width + i + 1];
        out.push(coonsPatch([a.position, a.trailing, b.leading, b.position].map(px), [c.position, c.trailing, d.leading, d.position].map(px),
          [a.position, a.bottom, c.top, c.position].map(px), [b.position, b.bottom, d.top, d.position].map(px)));
      }
    }
    return out;
  }

  /** MeshGeometry.coversFrame: the outer edges on the frame's edges. */
  function coversFrame(v, w, h) {
    const eq = (p, x, y) => p[0] === x && p[1] === y;
    if (!eq(v[0].position, 0, 0) || !eq(v[w - 1].position, 1, 0) || !eq(v[(h - 1) * w].position, 0, 1) || !eq(v[h * w - 1].position, 1, 1)) return false;
    for (let i = 0; i < w; i++) {
      const top = v[i], bottom = v[(h - 1) * w + i];
      if (top.position[1] !== 0 || (i > 0 && top.leading[1] !== 0) || (i < w - 1 && top.trailing[1] !== 0)) return false;
      if (bottom.position[1] !== 1 || (i > 0 && bottom.leading[1] !== 1) || (i < w - 1 && bottom.trailing[1] !== 1)) return false;
    }
    for (let j = 0; j < h; j++) {
      const left = v[j * w], right = v[j * w + w - 1];
      if (left.position[0] !== 0 || (j > 0 && left.top[0] !== 0) || (j < h - 1 && left.bottom[0] !== 0)) return false;
      if (right.position[0] !== 1 || (j > 0 && right.top[0] !== 1) || (j < h - 1 && right.bottom[0] !== 1)) return false;
    }
    return true;
  }

  /** MeshDraw.colors: premultiplied colours in the interpolation space at time t. */
  function meshColors(layer, time) {
    let before = layer.keyframes[0];
    if (layer.colorAnimations) {
      // MeshGradient.at: the animated colours are the mesh's colours (the keyframe at time 0) now.
      before = { time: 0, colors: meshStraightColors(layer, time).flatMap((c) => toInterpolationSpace(c, layer.space)) };
    }
    for (const key of layer.keyframes.slice(1)) {
      if (time < key.time) {
        const f = Math.max(0, (time - before.time) / (key.time - before.time));
        return before.colors.map((c, i) => c + (key.colors[i] - c) * f);
      }
      before = key;
    }
    return before.colors;
  }

  /** The animated vertex colours at time t, straight. */
  const meshStraightColors = (layer, time) => layer.colorAnimations.map((a) => animatedValue(a, time, mixColor(layer.space)));

  /** MeshDraw.channelRange of the colours at time t and the colour keyframes' (0…1 widened). */
  function meshChannelRange(layer, time) {
    if (!layer.colorAnimations) return [layer.channelLow, layer.channelHigh];
    const low = [0, 0, 0], high = [1, 1, 1];
    for (const c of meshStraightColors(layer, time).concat(layer.keyframeColors.flat())) {
      for (let i = 0; i < 3; i++) { low[i] = Math.min(low[i], f32(c[i])); high[i] = Math.max(high[i], f32(c[i])); }
    }
    return [low, high];
  }

  const hermite = [[1, 0, 0, 0], [0, 0, 1, 0], [-3, 3, -2, -1], [2, -2, 1, 1]];

  /** MeshDraw.coefficients: 16 RGBA per patch, u^a v^b at a * 4 + b. */
  function meshCoefficients(colors, width, height, smooth) {
    const at = (i, j) => { const k = 4 * (Math.min(Math.max(j, 0), height - 1) * width + Math.min(Math.max(i, 0), width - 1)); return colors.slice(k, k + 4); };
    const lin = (terms, divisor) => [0, 1, 2, 3].map((c) => terms.reduce((sum, [w, v]) => (sum === null ? w * v[c] : sum + w * v[c]), null) / divisor);
    const du = (i, j) => lin([[1, at(i + 1, j)], [-1, at(i - 1, j)]], 2);
    const dv = (i, j) => lin([[1, at(i, j + 1)], [-1, at(i, j - 1)]], 2);
    const duv = (i, j) => lin([[1, at(i + 1, j + 1)], [-1, at(i - 1, j + 1)], [-1, at(i + 1, j - 1)], [1, at(i - 1, j - 1)]], 4);
    const out = new Float32Array((width - 1) * (height - 1) * 64);
    let o = 0;
    for (let j = 0; j < height - 1; j++) {
      for (let i = 0; i < width - 1; i++) {
        const k = Array.from({ length: 16 }, () => [0, 0, 0, 0]);
        if (!smooth) {
          const c00 = at(i, j), c10 = at(i + 1, j), c01 = at(i, j + 1), c11 = at(i + 1, j + 1);
          for (let c = 0; c < 4; c++) {
            k[0][c] = c00[c]; k[1][c] = c01[c] - c00[c]; k[4][c] = c10[c] - c00[c]; k[5][c] = c00[c] - c10[c] - c01[c] + c11[c];
          }
        } else {
          const f = [[], [], [], []];
          [[i, j], [i + 1, j], [i, j + 1], [i + 1, j + 1]].forEach(([ci, cj], n) => {
            const m = n & 1, l = n >> 1;
            f[m][l] = at(ci, cj); f[2 + m][l] = du(ci, cj); f[m][2 + l] = dv(ci, cj); f[2 + m][2 + l] = duv(ci, cj);
          });
          for (let a = 0; a < 4; a++) {
            for (let b = 0; b < 4; b++) {
              const sum = [0, 0, 0, 0];
              for (let m = 0; m < 4; m++) {
                if (hermite[a][m] === 0) continue;
                for (let n = 0; n < 4; n++) {
                  if (hermite[b][n] === 0) continue;
                  const w = hermite[a][m] * hermite[b][n];
                  for (let c = 0; c < 4; c++) sum[c] += w * f[m][n][c];
                }
              }
              k[a * 4 + b] = sum;
            }
          }
        }
        for (const q of k) { out[o++] = q[0]; out[o++] = q[1]; out[o++] = q[2]; out[o++] = q[3]; }
      }
    }
    return out;
  }

  const bernstein = (t) => { const s = 1 - t; return [s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t]; };
  const MESH_TARGET = 0.245, MESH_MAX_STEPS = 256, MESH_MAX_QUADS = 1 << 21;

  /** Steps per patch column and row from MeshPatch.secondDerivativeBounds, the control-net bound
   *  MeshDraw.steps never exceeds: the surface within 0.245 px, as in Welkin. */
  function meshSteps(patches, columns, rows) {
    const len = (d) => Math.sqrt(d[0] * d[0] + d[1] * d[1]);
    const need = (d) => { const n = Math.ceil(Math.sqrt(d / (4 * MESH_TARGET))); return isFinite(n) ? Math.min(Math.max(n, 1), MESH_MAX_STEPS) : MESH_MAX_STEPS; };
    const u = new Array(columns).fill(1), v = new Array(rows).fill(1);
    patches.forEach((p, index) => {
      let uu = 0, uv = 0, vv = 0;
      const second = (a, b, c) => len([a[0] - 2 * b[0] + c[0], a[1] - 2 * b[1] + c[1]]);
      for (let l = 0; l < 4; l++) {
        for (let k = 0; k < 2; k++) {
          uu = Math.max(uu, second(p[(k + 2) * 4 + l], p[(k + 1) * 4 + l], p[k * 4 + l]));
          vv = Math.max(vv, second(p[l * 4 + k + 2], p[l * 4 + k + 1], p[l * 4 + k]));
        }
      }
      for (let k = 0; k < 3; k++) {
        for (let l = 0; l < 3; l++) {
          const a = p[(k + 1) * 4 + l + 1], b = p[(k + 1) * 4 + l], c = p[k * 4 + l + 1], d = p[k * 4 + l];
          uv = Math.max(uv, len([a[0] - b[0] - c[0] + d[0], a[1] - b[1] - c[1] + d[1]]));
        }
      }
      uu *= 6; uv *= 9; vv *= 6;
      u[index % columns] = Math.max(u[index % columns], need(uu + uv));
      v[Math.floor(index / columns)] = Math.max(v[Math.floor(index / columns)], need(vv + uv));
    });
    const quads = u.reduce((a, b) => a + b, 0) * v.reduce((a, b) => a + b, 0);
    if (quads > MESH_MAX_QUADS) {
      const shrink = Math.sqrt(MESH_MAX_QUADS / quads);
      return [u.map((x) => Math.max(1, Math.floor(x * shrink))), v.map((x) => Math.max(1, Math.floor(x * shrink)))];
    }
    return [u, v];
  }

  const snap = (x) => { const y = x * 256; return (y < 0 ? -Math.round(-y) : Math.round(y)) / 256; };

  /** MeshDraw.tessellate: each patch's grid of vertices and triangles, in drawing order, after the
   *  background triangle (vertices 0…2). */
  function meshGeometry(layer, time, size) {
    const v = meshVertices(layer, time);
    const columns = layer.width - 1, rows = layer.height - 1;
    const patches = meshPatches(v, layer.width, layer.height, size);
    const [su, sv] = meshSteps(patches, columns, rows);
    let vertexCount = 3, indexCount = 0;
    patches.forEach((_, p) => { const nu = su[p % columns], nv = sv[Math.floor(p / columns)]; vertexCount += (nu + 1) * (nv + 1); indexCount += 6 * nu * nv; });
    const positions = new Float32Array(2 * vertexCount), parameters = new Float32Array(2 * vertexCount);
    const patchIndex = new Int32Array(vertexCount), indices = new Uint32Array(indexCount);
    positions.set([0, 0, 2 * size[0], 0, 0, 2 * size[1]]);
    patchIndex.set([-1, -1, -1]);
    let n = 3, e = 0;
    patches.forEach((patch, p) => {
      const nu = su[p % columns], nv = sv[Math.floor(p / columns)];
      const first = n;
      const weights = [];
      for (let k = 0; k <= nu; k++) weights.push(bernstein(k / nu));
      for (let l = 0; l <= nv; l++) {
        const vv = l / nv, bv = bernstein(vv);
        const curve = [0, 1, 2, 3].map((k) => {
          let c = mul(bv[0], patch[k * 4]);
          c = add(c, mul(bv[1], patch[k * 4 + 1]));
          c = add(c, mul(bv[2], patch[k * 4 + 2]));
          return add(c, mul(bv[3], patch[k * 4 + 3]));
        });
        for (let k = 0; k <= nu; k++) {
          const bu = weights[k];
          let point = mul(bu[0], curve[0]);
          point = add(point, mul(bu[1], curve[1]));
          point = add(point, mul(bu[2], curve[2]));
          point = add(point, mul(bu[3], curve[3]));
          positions[2 * n] = snap(point[0]); positions[2 * n + 1] = snap(point[1]);
          parameters[2 * n] = k / nu; parameters[2 * n + 1] = vv;
          patchIndex[n] = p;
          n++;
        }
      }
      const stride = nu + 1;
      for (let l = 0; l < nv; l++) {
        for (let k = 0; k < nu; k++) {
          const a = first + l * stride + k, b = a + 1, c = a + stride, d = c + 1;
          indices[e++] = a; indices[e++] = b; indices[e++] = c;
          indices[e++] = b; indices[e++] = d; indices[e++] = c;
        }
      }
    });
    const coefficients = meshCoefficients(meshColors(layer, time), layer.width, layer.height, layer.smooth);
    return { positions, parameters, patchIndex, indices, coefficients, patchCount: patches.length, coversFrame: coversFrame(v, layer.width, layer.height) };
  }

  function drawMesh(layer, t, size) {
    const p = program(layer.program);
    const m = meshGeometry(layer, t, size);
    if (!layer.gl) {
      const vao = gl.createVertexArray();
      const buffers = [gl.createBuffer(), gl.createBuffer(), gl.createBuffer(), gl.createBuffer()];
      gl.bindVertexArray(vao);
      for (let i = 0; i < 3; i++) {
        gl.bindBuffer(gl.ARRAY_BUFFER, buffers[i]);
        gl.enableVertexAttribArray(i);
        if (i === 2) gl.vertexAttribIPointer(2, 1, gl.INT, 0, 0); else gl.vertexAttribPointer(i, 2, gl.FLOAT, false, 0, 0);
      }
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, buffers[3]);
      gl.bindVertexArray(null);
      const coefficients = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, coefficients);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      layer.gl = { vao, buffers, coefficients };
    }
    const g = layer.gl;
    gl.bindVertexArray(g.vao);
    [m.positions, m.parameters, m.patchIndex].forEach((array, i) => { gl.bindBuffer(gl.ARRAY_BUFFER, g.buffers[i]); gl.bufferData(gl.ARRAY_BUFFER, array, gl.STREAM_DRAW); });
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, m.indices, gl.STREAM_DRAW);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, g.coefficients);
    gl.bindSampler(1, null);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, 16, Math.max(1, m.patchCount), 0, gl.RGBA, gl.FLOAT, m.coefficients);
    gl.activeTexture(gl.TEXTURE0);
    if (layer.overCopy) {
      // What is below the mesh, copied: the mesh composites over it with blending off.
      const below = copyTarget();   // made first: making a target unbinds the framebuffers
      gl.bindFramebuffer(gl.READ_FRAMEBUFFER, current.framebuffer);
      gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, below.framebuffer);
      gl.blitFramebuffer(0, 0, size[0], size[1], 0, 0, size[0], size[1], gl.COLOR_BUFFER_BIT, gl.NEAREST);
      gl.bindFramebuffer(gl.FRAMEBUFFER, current.framebuffer);
      gl.disable(gl.BLEND);
      bindTexture(2, below.texture);
    }
    gl.useProgram(p.program);
    set2f(p, 'u_pixelSize', size[0], size[1]);
    const [low, high] = meshChannelRange(layer, t);
    set1f(p, 'u_opacity', opacityAt(layer, t));
    set4f(p, 'u_meshBackground', layer.background);
    set3f(p, 'u_channelLow', low[0], low[1], low[2]);
    set3f(p, 'u_channelHigh', high[0], high[1], high[2]);
    set1i(p, 'u_coefficients', 1);
    set1i(p, 'u_destinationCopy', 2);
    if (!m.coversFrame) gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.drawElements(gl.TRIANGLES, m.indices.length, gl.UNSIGNED_INT, 0);
    gl.bindVertexArray(null);
    gl.enable(gl.BLEND);
  }

  let copy = null;
  /** The copy of the target below a translucent mesh, which it composites over (made on first use). */
  function copyTarget() {
    if (!copy || copy.width !== accumulation.width || copy.height !== accumulation.height) {
      freeTarget(copy);
      copy = makeTarget(accumulation.width, accumulation.height, accumulationFormat);
    }
    return copy;
  }

  // ---- Particles (EmitterSimulation, ParticleStore, ParticleKernel, ParticleSnapshot, ParticleDraw:
  // the same steps in the same float32 arithmetic, every random value the same hash) -----------

  const f32 = Math.fround;
  const DT = 1 / 120, DT32 = f32(1 / 120);

  /** ParticleRandom.mix: SplitMix64's finaliser. */
  function mix(x) {
    let z = (x + 0x9E3779B97F4A7C15n) & MASK64;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK64;
    return z ^ (z >> 31n);
  }
  function particleKey(seed, layer, cell, birth) {
    let h = mix(seed);
    h = mix(h ^ BigInt.asUintN(64, BigInt(layer)));
    h = mix(h ^ BigInt.asUintN(64, BigInt(cell)));
    return mix(h ^ BigInt(birth));
  }
  /** ParticleRandom.uniform: value `slot` of the particle with `key`, in [0, 1). */
  function uniform(key, slot) { return Number(mix((key + BigInt(slot) * 0xD1B54A32D192ED03n) & MASK64) >> 11n) * 2 ** -53; }

  /** StepConstants for damping k over dt seconds (floats). */
  function stepConstants(k, dt) {
    if (k > 0) {
      const e = Math.exp(-k * dt);
      return { decay: f32(e), b: f32((1 - e) / k), c: f32((dt - (1 - e) / k) / k) };
    }
    return { decay: 1, b: f32(dt), c: f32(dt * dt / 2) };
  }

  const FIELDS = ['px', 'py', 'vx', 'vy', 'age', 'lifetime', 'scale', 'spin', 'red', 'green', 'blue', 'alpha', 'phase'];
  const EXTRA_COUNT = 13;   // ParticleStore.Extra: endScale … orbitSpeed

  /** ParticleStore: one cell's live particles, struct of arrays, in birth order. */
  class Store {
    constructor(extras) { this.count = 0; this.capacity = 0; this.extraCount = extras ? EXTRA_COUNT : 0; this.grow(64); }
    grow(n) {
      if (n <= this.capacity) return;
      const capacity = Math.max(n, this.capacity * 2);
      for (const f of FIELDS) { const a = new Float32Array(capacity); if (this[f]) a.set(this[f].subarray(0, this.count)); this[f] = a; }
      const b = new Uint32Array(capacity); if (this.birth) b.set(this.birth.subarray(0, this.count)); this.birth = b;
      const k = new Uint8Array(capacity); if (this.keep) k.set(this.keep.subarray(0, this.count)); this.keep = k;
      this.extras = Array.from({ length: this.extraCount }, (_, e) => { const a = new Float32Array(capacity); if (this.extras) a.set(this.extras[e].subarray(0, this.count)); return a; });
      this.capacity = capacity;
    }
    removeDead() {
      let kept = 0;
      for (let i = 0; i < this.count; i++) {
        if (!(this.age[i] < this.lifetime[i])) continue;
        if (kept !== i) {
          for (const f of FIELDS) this[f][kept] = this[f][i];
          this.birth[kept] = this.birth[i];
          this.keep[kept] = this.keep[i];
          for (const e of this.extras) e[kept] = e[i];
        }
        kept++;
      }
      this.count = kept;
    }
  }

  /** ParticleKernel.advance: one step under radial and tangential acceleration (floats). */
  function advanceForces(x, y, vx, vy, age, radial, tangential, k, ax, ay, centre, dt) {
    const dx = f32(x - centre[0]), dy = f32(y - centre[1]);
    const length = f32(Math.sqrt(f32(f32(dx * dx) + f32(dy * dy))));
    const nx = length > 0 ? f32(dx / length) : 0, ny = length > 0 ? f32(dy / length) : 0;
    const accX = f32(f32(ax + f32(nx * radial)) + f32(-ny * tangential));
    const accY = f32(f32(ay + f32(ny * radial)) + f32(nx * tangential));
    return [f32(f32(x + f32(vx * k.b)) + f32(accX * k.c)), f32(f32(y + f32(vy * k.b)) + f32(accY * k.c)),
      f32(f32(vx * k.decay) + f32(accX * k.b)), f32(f32(vy * k.decay) + f32(accY * k.b)), f32(age + dt)];
  }

  /** ParticleKernel.orbit: the orbiting particle at `age` (closed form). */
  function orbitAt(age, lifetime, start, end, angle, speed, centre) {
    const u = lifetime > 0 ? Math.min(f32(age / lifetime), 1) : 1;
    const r = f32(start + f32(f32(end - start) * u));
    const rate = lifetime > 0 ? f32(f32(end - start) / lifetime) : 0;
    const theta = angle + speed * age;
    const dx = f32(Math.cos(theta)), dy = f32(Math.sin(theta));
    const rs = f32(r * speed);
    return [f32(centre[0] + f32(dx * r)), f32(centre[1] + f32(dy * r)),
      f32(f32(dx * rate) + f32(-dy * rs)), f32(f32(dy * rate) + f32(dx * rs)), age];
  }

  /** EmitterSimulation.firstBirth: the smallest k with k / rate ≥ time. */
  function firstBirth(time, rate) {
    if (!(time > 0)) return 0;
    let k = Math.ceil(time * rate);
    if (!(k < 2 ** 63)) return 2 ** 63;
    while (k > 0 && (k - 1) / rate >= time) k--;
    while (k / rate < time) k++;
    return k;
  }

  function longestLifetime(cell, layer) { return Math.max(0, cell.longestLifetime) * layer.lifetime; }

  /** EmitterSimulation.init: empty at `startStep`. */
  function newSimulation(layer, startStep) {
    const start = startStep * DT;
    return {
      steps: startStep, startStep,
      stores: layer.cells.map((c) => new Store(c.usesExtras)),
      births: layer.cells.map((cell) => {
        const rate = cell.birthRate * layer.birthRate;
        return start > 0 && cell.enabled && rate > 0 && isFinite(rate) ? firstBirth(start, rate) : 0;
      }),
      seeds: layer.cells.map((c) => BigInt(c.seed)),
    };
  }

  /** EmitterSimulation.birthPosition, in points. */
  function birthPosition(layer, a, b) {
    const [w, h] = layer.sceneSize;
    const cx = layer.position[0] * w, cy = layer.position[1] * h;
    const hx = layer.size[0] * w / 2, hy = layer.size[1] * h / 2;
    switch (layer.shape) {
      case 'point': return [cx, cy];
      case 'line': return layer.mode === 'points' ? [cx + (a < 0.5 ? -hx : hx), cy + 0] : [cx + (a - 0.5) * 2 * hx, cy + 0];
      case 'rectangle': {
        if (layer.mode === 'points') { const corner = Math.floor(a * 4); return [cx + ((corner & 1) === 0 ? -hx : hx), cy + ((corner & 2) === 0 ? -hy : hy)]; }
        if (layer.mode === 'outline') {
          const perimeter = 4 * (hx + hy);
          if (!(perimeter > 0)) return [cx, cy];
          let d = a * perimeter;
          if (d < 2 * hx) return [cx + (-hx + d), cy + -hy];
          d -= 2 * hx;
          if (d < 2 * hy) return [cx + hx, cy + (-hy + d)];
          d -= 2 * hy;
          if (d < 2 * hx) return [cx + (hx - d), cy + hy];
          d -= 2 * hx;
          return [cx + -hx, cy + (hy - d)];
        }
        return [cx + (a - 0.5) * 2 * hx, cy + (b - 0.5) * 2 * hy];
      }
      default: {
        if (layer.mode === 'points') return [cx, cy];
        const radius = layer.size[0] * w / 2;
        const r = layer.mode === 'outline' ? radius : radius * Math.sqrt(a);
        const theta = (layer.mode === 'outline' ? a : b) * 2 * Math.PI;
        return [cx + Math.cos(theta) * r, cy + Math.sin(theta) * r];
      }
    }
  }

  /** EmitterSimulation.spawn: birth k of cell c, advanced from `born` to `end`; false if it dies first. */
  function spawn(layer, sim, c, k, born, end) {
    const cell = layer.cells[c], store = sim.stores[c];
    const key = particleKey(sim.seeds[c], layer.index, c, k);
    const u = (slot) => uniform(key, slot);
    const sample = (mean, range, slot) => mean + (2 * u(slot) - 1) * range;
    const lifetime = Math.max(0, sample(cell.lifetime, cell.lifetimeRange, 3)) * layer.lifetime;
    const age = end - born;
    if (!(age < lifetime)) return false;
    const position = birthPosition(layer, u(1), u(2));
    const speed = sample(cell.velocity, cell.velocityRange, 4) * layer.velocity;
    const angle = cell.emissionLongitude + (u(5) - 0.5) * cell.emissionRange;
    const v0 = [Math.cos(angle) * speed, Math.sin(angle) * speed];
    const scale = Math.max(0, sample(cell.scale, cell.scaleRange, 6));
    const spin = sample(cell.spin, cell.spinRange, 7) * layer.spin;
    const channel = (m, r, slot, i) => f32(Math.min(Math.max(sample(m, r, slot), cell.channelLow[i]), cell.channelHigh[i]));
    const color = [0, 1, 2, 3].map((i) => channel(cell.color[i], cell.colorRanges[i], 8 + i, i));
    const phase = f32(u(12) * 2 * Math.PI);
    const rest = stepConstants(cell.damping, age);
    const ax = cell.constants[3], ay = cell.constants[4];
    let p = [position[0] + v0[0] * rest.b + ax * rest.c, position[1] + v0[1] * rest.b + ay * rest.c];
    let velocity = [v0[0] * rest.decay + ax * rest.b, v0[1] * rest.decay + ay * rest.b];
    let extras = null;
    if (cell.usesExtras) {
      extras = new Array(EXTRA_COUNT).fill(0);
      extras[0] = cell.endScale !== null ? f32(Math.max(0, sample(cell.endScale, cell.endScaleRange, 13))) : f32(scale);
      const rotation = sample(cell.rotation, cell.rotationRange, 14);
      extras[1] = f32(rotation);
      extras[2] = cell.endRotation !== null ? f32(sample(cell.endRotation, cell.endRotationRange, 15)) : f32(rotation);
      const endColor = cell.endColor ? [0, 1, 2, 3].map((i) => channel(cell.endColor[i], cell.endColorRanges[i], 16 + i, i)) : color;
      for (let i = 0; i < 4; i++) extras[3 + i] = endColor[i];
      if (cell.usesForces) {
        const radial = f32(sample(cell.radial[0], cell.radial[1], 20)), tangential = f32(sample(cell.tangential[0], cell.tangential[1], 21));
        extras[7] = radial; extras[8] = tangential;
        const q = advanceForces(f32(position[0]), f32(position[1]), f32(v0[0]), f32(v0[1]), 0, radial, tangential, rest,
          cell.constants[3], cell.constants[4], layer.centre, f32(age));
        p = [q[0], q[1]]; velocity = [q[2], q[3]];
      }
      if (cell.orbit) {
        const o = cell.orbit;
        const start = f32(sample(o.radius[0], o.radius[1], 22));
        const endRadius = o.endRadius !== null ? f32(sample(o.endRadius, o.endRadiusRange, 23)) : start;
        const orbitSpeed = f32(sample(o.speed[0], o.speed[1], 24));
        extras[9] = start; extras[10] = endRadius; extras[11] = f32(angle); extras[12] = orbitSpeed;
        const q = orbitAt(f32(age), f32(lifetime), start, endRadius, f32(angle), orbitSpeed, layer.centre);
        p = [q[0], q[1]]; velocity = [q[2], q[3]];
      }
    }
    store.grow(store.count + 1);
    const i = store.count++;
    store.px[i] = p[0]; store.py[i] = p[1]; store.vx[i] = velocity[0]; store.vy[i] = velocity[1];
    store.age[i] = age; store.lifetime[i] = lifetime; store.scale[i] = scale; store.spin[i] = spin;
    store.red[i] = color[0]; store.green[i] = color[1]; store.blue[i] = color[2]; store.alpha[i] = color[3];
    store.phase[i] = phase; store.birth[i] = k % 4294967296;
    // The weather's rain and snow: whether this birth falls at the weather's intensity (steady weather).
    const P = layer.precipitation;
    if (P) store.keep[i] = uniform(particleKey(BigInt(P.seeds[c]), layer.index, c, store.birth[i]), P.slot) < P.intensity ? 1 : 0;
    if (extras) extras.forEach((v, e) => { store.extras[e][i] = v; });
    return true;
  }

  /** EmitterSimulation.step: move, remove the dead, then this step's births. */
  function simulationStep(layer, sim) {
    layer.cells.forEach((cell, c) => {
      const s = sim.stores[c];
      const [decay, b, cc, ax, ay] = cell.constants;
      let anyDead = false;
      if (cell.orbit) {
        for (let i = 0; i < s.count; i++) {
          const x = s.extras;
          const q = orbitAt(f32(s.age[i] + DT32), s.lifetime[i], x[9][i], x[10][i], x[11][i], x[12][i], layer.centre);
          s.px[i] = q[0]; s.py[i] = q[1]; s.vx[i] = q[2]; s.vy[i] = q[3]; s.age[i] = q[4];
          if (q[4] >= s.lifetime[i]) anyDead = true;
        }
      } else if (cell.usesForces) {
        const k = { decay, b, c: cc };
        for (let i = 0; i < s.count; i++) {
          const q = advanceForces(s.px[i], s.py[i], s.vx[i], s.vy[i], s.age[i], s.extras[7][i], s.extras[8][i], k, ax, ay, layer.centre, DT32);
          s.px[i] = q[0]; s.py[i] = q[1]; s.vx[i] = q[2]; s.vy[i] = q[3]; s.age[i] = q[4];
          if (q[4] >= s.lifetime[i]) anyDead = true;
        }
      } else {
        const cx = f32(ax * cc), cy = f32(ay * cc), bx = f32(ax * b), by = f32(ay * b);
        const { px, py, vx, vy, age, lifetime } = s;
        for (let i = 0; i < s.count; i++) {
          const u = vx[i], v = vy[i];
          px[i] = f32(f32(px[i] + f32(u * b)) + cx);
          py[i] = f32(f32(py[i] + f32(v * b)) + cy);
          vx[i] = f32(f32(u * decay) + bx);
          vy[i] = f32(f32(v * decay) + by);
          const a = f32(age[i] + DT32);
          age[i] = a;
          if (a >= lifetime[i]) anyDead = true;
        }
      }
      if (anyDead) s.removeDead();
    });
    sim.steps += 1;
    // Births in the step just finished (EmitterSimulation.emitBirths).
    const end = sim.steps * DT;
    let live = sim.stores.reduce((n, s) => n + s.count, 0);
    layer.cells.forEach((cell, c) => {
      if (!cell.enabled) return;
      const rate = cell.birthRate * layer.birthRate;
      if (!(rate > 0) || !isFinite(rate)) return;
      if (!(sim.births[c] / rate < end)) return;
      const stop = cell.emissionDuration !== null ? Math.min(end, cell.emissionDuration) : end;
      if (!(sim.births[c] / rate < stop)) return;
      const oldest = end - longestLifetime(cell, layer) * (1 + 1e-9) - DT * 1e-6;
      if (oldest > 0 && sim.births[c] / rate < oldest && live < layer.maxParticles) sim.births[c] = Math.max(sim.births[c], firstBirth(oldest, rate));
      for (;;) {
        const k = sim.births[c], born = k / rate;
        if (!(born < stop) || !(k < 2 ** 63)) break;
        if (live >= layer.maxParticles) { sim.births[c] = firstBirth(stop, rate); break; }
        sim.births[c] = k + 1;
        if (spawn(layer, sim, c, k, born, end)) live += 1;
      }
    });
  }

  /** EmitterSimulation.steps(at:prewarm:). */
  function stepsAt(time, prewarm) {
    const t = (time + prewarm) * 120;
    if (!(t > 0)) return 0;
    return Math.floor(Math.min(t + 1e-7, 2147483647));
  }

  /** SimulationPlan.start(for:). */
  function planStart(plan, target) {
    if (plan.exact && plan.lifetimeSteps !== null) return Math.max(0, target - plan.lifetimeSteps);
    if (target < 2 * plan.historySteps) return 0;
    return Math.floor((target - plan.historySteps) / plan.historySteps) * plan.historySteps;
  }

  /** The layer's simulation at `time`: continued when the plan allows (playing forward), else afresh. */
  function simulationAt(layer, time) {
    const target = stepsAt(time, layer.prewarm), plan = layer.plan;
    let sim = layer.simulation;
    const start = planStart(plan, target);
    const continues = sim && sim.steps <= target && (plan.exact && plan.lifetimeSteps !== null
      ? (sim.startStep === 0 || sim.startStep + plan.lifetimeSteps <= target) && sim.steps >= start
      : sim.startStep === start);
    if (!continues) sim = layer.simulation = newSimulation(layer, start);
    while (sim.steps < target) simulationStep(layer, sim);
    return sim;
  }

  function ramp(values, u) {
    const n = values.length;
    if (n === 1) return values[0];
    const x = (u > 0 ? Math.min(u, 1) : 0) * (n - 1);
    const i = Math.min(Math.floor(x), n - 2), f = x - i;
    return values[i] + (values[i + 1] - values[i]) * f;
  }

  /** ParticleSnapshot and ParticleDraw.instance: store index i as a sprite instance (10 floats), or false. */
  function spriteInstance(layer, c, cell, s, i, t, sizeScale, scale, opacity, out, o) {
    const age = s.age[i], lifetime = s.lifetime[i];
    const u = lifetime > 0 ? Math.min(age / lifetime, 1) : 1;
    let x = s.px[i], y = s.py[i], vx = s.vx[i], vy = s.vy[i];
    const [amplitude0, frequency, endAmplitude] = cell.sway;
    if (amplitude0 !== 0) x += amplitude0 * (1 + (endAmplitude - 1) * u) * Math.cos(2 * Math.PI * frequency * age + s.phase[i]);
    const extended = s.extras.length > 0;
    const interpolate = (start, e) => (extended ? start + (s.extras[e][i] - start) * u : start);
    let sc = layer.scale * Math.max(0, interpolate(s.scale[i], 0) + cell.scaleSpeed * age);
    if (cell.scaleOverLife) sc *= Math.max(0, ramp(cell.scaleOverLife, u));
    const clamp = (v) => v.map((c, k) => Math.min(Math.max(c, cell.channelLow[k]), cell.channelHigh[k]));
    let color = clamp([interpolate(s.red[i], 3) + cell.colorSpeeds[0] * age, interpolate(s.green[i], 4) + cell.colorSpeeds[1] * age,
      interpolate(s.blue[i], 5) + cell.colorSpeeds[2] * age, interpolate(s.alpha[i], 6) + cell.colorSpeeds[3] * age]);
    if (cell.colorOverLife) {
      const values = cell.colorOverLife;
      color = color.map((c, k) => c * ramp(values.map((v) => v[k]), u));
    }
    let angle = s.spin[i] * age;
    if (extended) { const start = s.extras[1][i]; angle += start + (s.extras[2][i] - start) * u; }
    if (cell.alphaOverLife) color[3] *= Math.min(Math.max(ramp(cell.alphaOverLife, u), 0), 1);
    color = clamp(color);
    const P = layer.precipitation;
    if (P) {
      // PrecipitationKind.particles: kept at the weather's intensity, pushed by the wind since its
      // birth (travel = wind × time in steady weather), wrapped across the birth line.
      if (!s.keep[i]) return false;
      const born = s.birth[i] / (cell.birthRate * layer.birthRate) - layer.prewarm;
      const push = P.pushes[c];
      x += (P.wind[0] * t - P.wind[0] * born) * push;
      y += (P.wind[1] * t - P.wind[1] * born) * push;
      vx += P.wind[0] * push;
      vy += P.wind[1] * push;
      if (isFinite(x)) { let w = (x + P.margin) % P.period; if (w < 0) w += P.period; x = w - P.margin; }
    }
    // ParticleDraw.instance
    const alpha = f32(color[3] * opacity);
    const width = f32(f32(cell.spriteSize * sc) * sizeScale);
    if (!(alpha > 0) || !(width > 0)) return false;
    let sx = width, ax = f32(Math.cos(angle)), ay = f32(Math.sin(angle));
    if (cell.sprite === 'streak') {
      const speed = Math.sqrt(vx * vx + vy * vy);
      sx = f32(width + f32(f32(speed * cell.streakDuration) * sizeScale));
      if (speed > 0) { ax = f32(vx / speed); ay = f32(vy / speed); } else { ax = 1; ay = 0; }
    }
    const values = [f32(f32(color[0]) * alpha), f32(f32(color[1]) * alpha), f32(f32(color[2]) * alpha), alpha,
      f32(f32(x) * scale[0]), f32(f32(y) * scale[1]), sx, width, ax, ay];
    if (!values.every(isFinite)) return false;
    out.set(values, o);
    return true;
  }

  function drawEmitter(layer, t, size) {
    const sim = simulationAt(layer, t);
    const opacity = opacityAt(layer, t);
    const pixelScale = [size[0] / data.size[0], size[1] / data.size[1]];
    const sizeScale = f32(Math.sqrt(pixelScale[0] * pixelScale[1])), scale = [f32(pixelScale[0]), f32(pixelScale[1])];
    if (!layer.gl) {
      const vao = gl.createVertexArray(), buffer = gl.createBuffer();
      gl.bindVertexArray(vao);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      [[0, 4, 0], [1, 2, 16], [2, 2, 24], [3, 2, 32]].forEach(([location, components, offset]) => {
        gl.enableVertexAttribArray(location);
        gl.vertexAttribPointer(location, components, gl.FLOAT, false, 40, offset);
        gl.vertexAttribDivisor(location, 1);
      });
      gl.bindVertexArray(null);
      layer.gl = { vao, buffer };
    }
    gl.blendFunc(gl.ONE, layer.renderMode === 'additive' ? gl.ONE : gl.ONE_MINUS_SRC_ALPHA);
    gl.bindVertexArray(layer.gl.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, layer.gl.buffer);
    layer.cells.forEach((cell, c) => {
      const s = sim.stores[c];
      if (s.count === 0) return;
      // Birth order (ParticleStore.birthOrder), newest first for oldestLast.
      let order = null;
      for (let i = 1; i < s.count; i++) if (!(s.birth[i - 1] < s.birth[i])) { order = Array.from({ length: s.count }, (_, k) => k).sort((a, b) => s.birth[a] - s.birth[b]); break; }
      // One instance buffer per layer, grown as needed and reused frame after frame.
      if (!layer.gl.instances || layer.gl.instances.length < 10 * s.count) layer.gl.instances = new Float32Array(Math.max(10 * s.count, 2 * (layer.gl.instances ? layer.gl.instances.length : 0)));
      const instances = layer.gl.instances;
      let n = 0;
      for (let k = 0; k < s.count; k++) {
        const j = layer.renderMode === 'oldestLast' ? s.count - 1 - k : k;
        if (spriteInstance(layer, c, cell, s, order ? order[j] : j, t, sizeScale, scale, opacity, instances, 10 * n)) n++;
      }
      if (n === 0) return;
      const p = program(cell.program);
      gl.useProgram(p.program);
      set2f(p, 'u_pixelSize', size[0], size[1]);
      set1f(p, 'u_blurFraction', cell.blurFraction[0]);
      gl.bufferData(gl.ARRAY_BUFFER, instances.subarray(0, 10 * n), gl.STREAM_DRAW);
      gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, n);
    });
    gl.bindVertexArray(null);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  }

  // ---- Drawing --------------------------------------------------------------------------------

  let textures = [], accumulation = null, layerTarget = null;
  /** Linked programs by index, each linked the first time a frame needs it (the rest are linked
   *  while the page is idle after its first frame, so a later frame does not wait for one). */
  let compiled = null;
  function program(i) { return compiled[i] || (compiled[i] = link(data.programs[i])); }
  const mouse = { x: 0, y: 0, clickX: 0, clickY: 0, down: false };

  /** Gradient.at(t) when it animates: the shape's numbers, and the stops sorted again and in the
   *  interpolation space (ResolvedStops). */
  function gradientAt(layer, t) {
    const a = layer.animation;
    if (!a) return layer;
    const points = a.points.map((p) => animatedValue(p, t, mixPoint)), n = a.numbers.map((v) => animatedValue(v, t, mixNumber));
    const numbers = layer.shape === 'radial' || layer.shape === 'elliptical' ? n.map((v) => Math.max(0, v)) : n;
    const stops = a.stops.map((stop, i) => ({
      color: animatedValue(stop.color, t, mixColor(layer.space)), location: clamp01(animatedValue(stop.location, t, mixNumber)), i,
    })).sort((x, y) => x.location - y.location || x.i - y.i);
    return {
      shape: layer.shape, points: points.flat(), numbers, locations: stops.map((stop) => f32(stop.location)),
      colors: stops.flatMap((stop) => toInterpolationSpace(stop.color, layer.space)),
    };
  }

  function drawGradient(layer, t, size, scale) {
    const p = program(layer.program);
    const g = gradientAt(layer, t);
    const u = gradientUniforms(g, size, scale);
    gl.useProgram(p.program);
    set2f(p, 'u_pixelSize', size[0], size[1]);
    set2f(p, 'u_origin', u.origin[0], u.origin[1]);
    set2f(p, 'u_vector', u.vector[0], u.vector[1]);
    set2f(p, 'u_range', u.range[0], u.range[1]);
    set1fv(p, 'u_locations', g.locations);
    set4fv(p, 'u_colors', g.colors);
    set1f(p, 'u_opacity', opacityAt(layer, t));
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  function setUserUniforms(p, layer) {
    const kinds = [gl.FLOAT, gl.FLOAT_VEC2, gl.FLOAT_VEC3, gl.FLOAT_VEC4];
    for (const { name, path, values } of layer.uniforms) {
      const u = p.uniforms[name];
      if (!u) continue;   // not used by the shader (the export warned)
      const index = kinds.indexOf(u.type);
      if (u.size !== 1 || index < 0 || index + 1 !== values.length) {
        fail(path + ': the shader declares a uniform of another type than the ' + values.length + ' number(s) the scene gives');
      }
      gl['uniform' + values.length + 'fv'](u.location, new Float32Array(values));
    }
  }

  /** One pass of a shader layer (UserShaderPass.setUniforms): the layer's own or a buffer's, into
   *  `target` with blending off. A channel reads an image, or a buffer's newest picture. */
  function shaderPass(layer, pass, target, time, frame, size, scale) {
    const p = program(pass.program);
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.disable(gl.BLEND);
    gl.useProgram(p.program);
    set1f(p, 'u_time', time);
    set2f(p, 'u_resolution', size[0], size[1]);
    set1i(p, 'u_frame', frame);
    set2f(p, 'u_mouse', mouse.x, mouse.y);
    set2f(p, 'u_pixelScale', scale[0], scale[1]);
    set3f(p, 'iResolution', size[0], size[1], 1);
    set1f(p, 'iTime', time);
    set1f(p, 'iTimeDelta', 1 / 60);
    set1f(p, 'iFrameRate', 60);
    set1i(p, 'iFrame', frame);
    set4f(p, 'iMouse', mouse.down ? [mouse.x, mouse.y, mouse.clickX, mouse.clickY] : [mouse.x, mouse.y, -Math.abs(mouse.clickX), -Math.abs(mouse.clickY)]);
    set4f(p, 'iDate', shadertoyDate(layer.iDate, time));
    set1f(p, 'iSampleRate', 44100);
    // A buffer keeps all four channels, as Shadertoy's do.
    set1i(p, layer.alphaUniform, pass.isBuffer ? 1 : layer.alpha);
    const times = [0, 1, 2, 3].map((i) => (pass.channels[i] && pass.channels[i].buffer ? time : 0));
    if (p.uniforms.iChannelTime) set1fv(p, 'iChannelTime', times.slice(0, p.uniforms.iChannelTime.size));
    const resolutions = new Array(12).fill(0);
    for (let i = 0; i < 4; i++) {
      const c = pass.channels[i];
      gl.activeTexture(gl.TEXTURE0 + i);
      let texture = null, width = 0, height = 0;
      if (c && c.buffer) { texture = layer.buffers.state.pairs[c.buffer][0].texture; [width, height] = size; }
      else if (c) { const tex = textures[c.texture]; texture = tex.texture; width = tex.width; height = tex.height; }
      if (texture) resolutions.splice(3 * i, 3, width, height, 1);
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.bindSampler(i, texture ? sampler(c.filter, c.wrap) : null);
      set1i(p, 'iChannel' + i, i);
    }
    gl.activeTexture(gl.TEXTURE0);
    if (p.uniforms.iChannelResolution) set3fv(p, 'iChannelResolution', resolutions.slice(0, 3 * p.uniforms.iChannelResolution.size));
    setUserUniforms(p, layer);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    for (let i = 0; i < 4; i++) { gl.activeTexture(gl.TEXTURE0 + i); gl.bindTexture(gl.TEXTURE_2D, null); gl.bindSampler(i, null); }
    gl.activeTexture(gl.TEXTURE0);
  }

  /** ShaderBuffers: every buffer frame from the last one run up to the frame at t (from 0 after a
   *  seek back), each at its own time k / 60, each buffer into its spare target, which then becomes
   *  its newest picture. Returns the last buffer frame run. */
  function runBuffers(layer, t, size, scale) {
    const b = layer.buffers;
    if (!b.state || b.state.size[0] !== size[0] || b.state.size[1] !== size[1]) {
      if (b.state) for (const pair of Object.values(b.state.pairs)) pair.forEach(freeTarget);
      const pairs = {};
      for (const pass of b.passes) pairs[pass.name] = [makeTarget(size[0], size[1], bufferFormat), makeTarget(size[0], size[1], bufferFormat)];
      b.state = { pairs, size: size.slice(), lastFrame: null };
    }
    const state = b.state;
    const n = Math.max(frameNumber(t), 0);
    if (state.lastFrame !== null && state.lastFrame > n) {
      for (const pair of Object.values(state.pairs)) for (const target of pair) { gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer); gl.clearColor(0, 0, 0, 0); gl.clear(gl.COLOR_BUFFER_BIT); }
      state.lastFrame = null;
    }
    for (let k = state.lastFrame === null ? 0 : state.lastFrame + 1; k <= n; k++) {
      for (const pass of b.passes) {
        const pair = state.pairs[pass.name];
        shaderPass(layer, pass, pair[1], k / 60, k, size, scale);
        state.pairs[pass.name] = [pair[1], pair[0]];
        if (b.mipmapped.includes(pass.name)) {
          gl.bindTexture(gl.TEXTURE_2D, pair[1].texture);
          gl.generateMipmap(gl.TEXTURE_2D);
          gl.bindTexture(gl.TEXTURE_2D, null);
        }
      }
      state.lastFrame = k;
    }
    return state.lastFrame;
  }

  function drawShader(layer, t, size, scale) {
    const frame = layer.buffers ? runBuffers(layer, t, size, scale) : frameNumber(t);
    // The layer's own pass into its float target, cleared so that discarded fragments add nothing.
    gl.bindFramebuffer(gl.FRAMEBUFFER, layerTarget.framebuffer);
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    shaderPass(layer, layer, layerTarget, t, frame, size, scale);

    // layer.frag: clamp, premultiply, × opacity, blended into the target.
    const c = program(layer.composite);
    gl.bindFramebuffer(gl.FRAMEBUFFER, current.framebuffer);
    gl.enable(gl.BLEND);
    gl.useProgram(c.program);
    set2f(c, 'u_pixelSize', size[0], size[1]);
    bindTexture(4, layerTarget.texture);
    set1i(c, 'u_layer', 4);
    set1f(c, 'u_opacity', opacityAt(layer, t));
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  // ---- Captured layers (the sky, clouds, cloud sprites as GLRenderer drew them) ---------------

  let capturedTextures = [];

  /** Inflates and uploads the captured textures (GLCapture.Texture's formats). */
  async function loadCapturedTextures() {
    capturedTextures = await Promise.all(data.capturedTextures.map(async (t) => {
      const stream = new Blob([decodeBase64(t.data)]).stream().pipeThrough(new DecompressionStream('deflate'));
      const bytes = await new Response(stream).arrayBuffer();
      const [internal, format, type, view] = {
        rgba32Float: [gl.RGBA32F, gl.RGBA, gl.FLOAT, Float32Array], rg32Float: [gl.RG32F, gl.RG, gl.FLOAT, Float32Array],
        rg32Uint: [gl.RG32UI, gl.RG_INTEGER, gl.UNSIGNED_INT, Uint32Array], rgba16Float: [gl.RGBA16F, gl.RGBA, gl.HALF_FLOAT, Uint16Array],
        rgba8Unorm: [gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE, Uint8Array], r8Unorm: [gl.R8, gl.RED, gl.UNSIGNED_BYTE, Uint8Array],
      }[t.format];
      const target = t.is3D ? gl.TEXTURE_3D : gl.TEXTURE_2D;
      const texture = gl.createTexture();
      gl.bindTexture(target, texture);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
      if (t.is3D) gl.texImage3D(target, 0, internal, t.size[0], t.size[1], t.size[2], 0, format, type, new view(bytes));
      else gl.texImage2D(target, 0, internal, t.size[0], t.size[1], 0, format, type, new view(bytes));
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
      gl.bindTexture(target, null);
      return { texture, target, integer: t.format === 'rg32Uint' };
    }));
  }

  const capturedSamplers = {};
  function capturedSampler(linear, repeats, clampsRows) {
    const key = linear + ' ' + repeats + ' ' + clampsRows;
    if (capturedSamplers[key]) return capturedSamplers[key];
    const s = gl.createSampler();
    gl.samplerParameteri(s, gl.TEXTURE_MIN_FILTER, linear ? gl.LINEAR : gl.NEAREST);
    gl.samplerParameteri(s, gl.TEXTURE_MAG_FILTER, linear ? gl.LINEAR : gl.NEAREST);
    for (const wrap of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R]) {
      // Rows clamped where columns repeat: the Milky Way's map (longitude wraps, the poles do not).
      const clamped = !repeats || (clampsRows && wrap === gl.TEXTURE_WRAP_T);
      gl.samplerParameteri(s, wrap, clamped ? gl.CLAMP_TO_EDGE : gl.REPEAT);
    }
    capturedSamplers[key] = s;
    return s;
  }

  /** Sets a captured uniform from its values (GLCapture.Uniform's types; arrays whole). */
  function setCaptured(p, u, values) {
    const loc = p.uniforms[u.name] ? p.uniforms[u.name].location : null;
    if (loc === null) return;
    const n = { float: 1, vec2: 2, vec3: 3, vec4: 4, int: 1, ivec2: 2, ivec3: 3, ivec4: 4, uint: 1, uvec2: 2, bool: 1, mat3: 9, mat4: 16 }[u.type];
    if (u.type === 'mat3') return gl.uniformMatrix3fv(loc, false, new Float32Array(values));
    if (u.type === 'mat4') return gl.uniformMatrix4fv(loc, false, new Float32Array(values));
    const kind = u.type.startsWith('u') ? 'ui' : u.type === 'bool' || u.type.startsWith('i') ? 'i' : 'f';
    const array = kind === 'f' ? new Float32Array(values) : kind === 'i' ? new Int32Array(values) : new Uint32Array(values);
    gl['uniform' + n + kind + 'v'](loc, array);
  }

  /** A volumetric cloud layer's drift at t (WebCloudDrift in WebExport.swift: travel linear in time). */
  function cloudDrift(c, name, t) {
    const wrapped = (v) => (isFinite(v) ? v - Math.floor(v) : 0);
    const travel = [c.velocity[0] * t, c.velocity[1] * t];
    const d = [(c.right[0] * travel[0] + c.forward[0] * travel[1]) / 1000, (c.right[1] * travel[0] + c.forward[1] * travel[1]) / 1000];
    const r = c.random;
    if (name === 'u_clouds.offset') {
      return [wrapped(-d[0] / c.scales[0] + r[0]), wrapped(-d[1] / c.scales[0] + r[1]), wrapped(-d[0] / c.scales[1] + r[2]), wrapped(-d[1] / c.scales[1] + r[3])];
    }
    if (name === 'u_clouds.evolution') return [wrapped(t * c.evolutionRate * c.evolution + r[4])];
    return [wrapped(-d[0] * 1.5 / c.cirrusScale + r[5]), wrapped(-d[1] * 1.5 / c.cirrusScale * 0.25 + r[6])];
  }

  function drawCaptured(layer, t, size) {
    const draws = layer.scales[scaleIndex(size)];
    layer.targets = layer.targets || [];
    draws.forEach((d, i) => {
      const p = program(d.program);
      let target = current;
      if (d.intermediate) {
        let x = layer.targets[i];
        if (!x || x.width !== d.target[0] || x.height !== d.target[1]) { freeTarget(x); x = layer.targets[i] = makeTarget(d.target[0], d.target[1], gl.RGBA32F); }
        target = x;
      }
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
      gl.viewport(0, 0, d.target[0], d.target[1]);
      if (d.blends && !d.intermediate) { gl.enable(gl.BLEND); gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA); } else gl.disable(gl.BLEND);
      gl.useProgram(p.program);
      for (const u of d.uniforms) {
        setCaptured(p, u, u.drift ? cloudDrift(layer.drift, u.name, t) : !u.clock ? u.values : u.name === 'iFrame' ? [frameNumber(t)] : [t]);
      }
      d.samplers.forEach((sm, unit) => {
        gl.activeTexture(gl.TEXTURE0 + unit);
        if (sm.draw !== undefined) {
          gl.bindTexture(gl.TEXTURE_2D, layer.targets[sm.draw].texture);
          gl.bindSampler(unit, null);
        } else {
          const tex = capturedTextures[sm.texture];
          gl.bindTexture(tex.target, tex.texture);
          gl.bindSampler(unit, capturedSampler(sm.linear && !tex.integer, sm.repeats, !!sm.clampsRows));
        }
        set1i(p, sm.name, unit);
      });
      gl.activeTexture(gl.TEXTURE0);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      d.samplers.forEach((sm, unit) => {
        gl.activeTexture(gl.TEXTURE0 + unit);
        gl.bindTexture(gl.TEXTURE_2D, null); gl.bindTexture(gl.TEXTURE_3D, null); gl.bindSampler(unit, null);
      });
      gl.activeTexture(gl.TEXTURE0);
    });
    gl.viewport(0, 0, size[0], size[1]);
    gl.bindFramebuffer(gl.FRAMEBUFFER, current.framebuffer);
  }

  // ---- Text (TextPass: glyph quads on whole pixels, coverage copied from the atlas) -------------

  /** The index in data.fixedScales of the canvas's scale (a page with text draws at one of them). */
  function scaleIndex(size) {
    return data.fixedScales ? Math.max(0, data.fixedScales.indexOf(Math.round(size[0] / data.size[0]))) : 0;
  }

  function drawText(layer, t, size) {
    const L = layer.layouts[scaleIndex(size)];
    if (!L || !L.quads.length) return;
    const p = program(layer.program);
    if (!L.gl) {
      const atlas = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, atlas);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8UI, L.width, L.height, 0, gl.RED_INTEGER, gl.UNSIGNED_BYTE, L.pixels);
      gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      const vao = gl.createVertexArray(), buffer = gl.createBuffer();
      gl.bindVertexArray(vao);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, new Int32Array(L.quads), gl.STATIC_DRAW);
      for (let location = 0; location < 3; location++) {
        gl.enableVertexAttribArray(location);
        gl.vertexAttribIPointer(location, 2, gl.INT, 24, 8 * location);
        gl.vertexAttribDivisor(location, 1);
      }
      gl.bindVertexArray(null);
      L.gl = { atlas, vao };
    }
    gl.useProgram(p.program);
    set2f(p, 'u_pixelSize', size[0], size[1]);
    set4f(p, 'u_color', premultiplied(animatedValue(layer.color, t, mixColor(layer.space)), opacityAt(layer, t)));
    bindTexture(1, L.gl.atlas);
    set1i(p, 'u_atlas', 1);
    gl.bindVertexArray(L.gl.vao);
    gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, L.quads.length / 6);
    gl.bindVertexArray(null);
  }

  /** Inflates every text layout's atlas (zlib, as embedded) before the first frame. */
  async function inflateAtlases() {
    const layouts = [];
    everyNode((n) => { if (n.kind === 'glyphs') for (const L of n.layouts) if (L) layouts.push(L); });
    await Promise.all(layouts.map(async (L) => {
      if (L.pixels) return;
      const stream = new Blob([decodeBase64(L.atlas)]).stream().pipeThrough(new DecompressionStream('deflate'));
      L.pixels = new Uint8Array(await new Response(stream).arrayBuffer());
    }));
  }

  // ---- Groups (GroupPass: layers and mask offscreen, the shadow's blur, the composite) -----------

  const groupTargets = [];
  let blurTargets = null;

  /** The content and mask targets of nesting depth `depth`, cleared transparent. */
  function groupTarget(depth, size, masked) {
    let g = groupTargets[depth];
    if (!g || g.content.width !== size[0] || g.content.height !== size[1]) {
      if (g) { freeTarget(g.content); freeTarget(g.mask); }
      g = groupTargets[depth] = { content: makeTarget(size[0], size[1], accumulationFormat), mask: null };
    }
    if (masked && !g.mask) g.mask = makeTarget(size[0], size[1], accumulationFormat);
    for (const t of masked ? [g.content, g.mask] : [g.content]) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, t.framebuffer);
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT);
    }
    return g;
  }

  function groupInputs(p, g, masked, size, transform) {
    gl.useProgram(p.program);
    set2f(p, 'u_pixelSize', size[0], size[1]);
    bindTexture(1, g.content.texture);
    bindTexture(2, masked ? g.mask.texture : null);
    set1i(p, 'u_content', 1);
    set1i(p, 'u_mask', 2);
    set4f(p, 'u_inverse', transform ? transform.inverse : [1, 0, 0, 1]);
    set2f(p, 'u_inverseOffset', transform ? transform.inverseOffset[0] : 0, transform ? transform.inverseOffset[1] : 0);
  }

  /** A group (GroupPass.draw); `override` gives a transformed layer's transform, shadow and opacity. */
  function drawGroup(layer, t, size, scale, depth, override) {
    const parent = current;
    const masked = !!layer.mask;
    const transform = override ? override.transform : null;
    const shadowValues = override ? override.shadow : layer.shadow;
    const opacity = override ? override.opacity : opacityAt(layer, t);
    const variant = transform ? 1 : 0;
    const g = groupTarget(depth, size, masked);
    current = g.content;
    for (const child of layer.layers) drawNode(child, t, size, scale, depth + 1);
    if (masked) { current = g.mask; drawNode(layer.mask, t, size, scale, depth + 1); }
    gl.disable(gl.BLEND);
    let blurred = null;
    const shadow = shadowValues ? shadowAt(shadowValues, t, scale, data.colorSpace) : null;
    if (shadow) {
      // Four rows a texel (GroupPass.packedSize: channel c of packed row j is row 4j + c).
      const packedRows = (size[1] + 3) >> 2;
      if (!blurTargets || blurTargets[0].width !== size[0] || blurTargets[0].height !== packedRows) {
        if (blurTargets) blurTargets.forEach(freeTarget);
        blurTargets = [makeTarget(size[0], packedRows, gl.RGBA32F), makeTarget(size[0], packedRows, gl.RGBA32F)];
      }
      const [h, v] = blurTargets;
      // The masked (and moved) alpha into v, then v → h along rows, h → v along columns.
      gl.viewport(0, 0, size[0], packedRows);
      gl.bindFramebuffer(gl.FRAMEBUFFER, v.framebuffer);
      const alphaProgram = program(layer.alpha[variant]);
      groupInputs(alphaProgram, g, masked, size, transform);
      const rows = alphaProgram.uniforms.u_rows;
      if (rows) gl.uniform2i(rows.location, 0, size[1]);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      for (const [name, target, weights, source] of [['horizontal', h, shadow.horizontal, v], ['vertical', v, shadow.vertical, h]]) {
        gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
        const p = program(layer[name]);
        groupInputs(p, g, masked, size, null);
        bindTexture(3, source.texture);
        set1i(p, 'u_horizontal', 3);
        const taps = Math.min(weights.length, 193);
        set1fv(p, 'u_weights', weights.slice(0, taps));
        set1i(p, 'u_taps', taps - 1);
        gl.drawArrays(gl.TRIANGLES, 0, 3);
        bindTexture(3, null);
      }
      blurred = v;
      gl.viewport(0, 0, size[0], size[1]);
    }
    current = parent;
    gl.bindFramebuffer(gl.FRAMEBUFFER, parent.framebuffer);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    const p = program(layer.composite[variant]);
    groupInputs(p, g, masked, size, transform);
    bindTexture(3, blurred ? blurred.texture : null);
    set1i(p, 'u_shadow', 3);
    const u = p.uniforms.u_shadowOffset;
    if (u) gl.uniform2i(u.location, shadow ? shadow.offset[0] : 0, shadow ? shadow.offset[1] : 0);
    set4f(p, 'u_shadowColor', shadow ? shadow.color : [0, 0, 0, 0]);
    set1f(p, 'u_opacity', opacity);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    for (const unit of [1, 2, 3]) bindTexture(unit, null);
  }

  // ---- The frame ------------------------------------------------------------------------------

  /** The target layers are drawn into: the accumulation, or a group's content or mask. */
  let current = null;

  function drawNode(layer, t, size, scale, depth) {
    gl.bindFramebuffer(gl.FRAMEBUFFER, current.framebuffer);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    switch (layer.kind) {
      case 'gradient': drawGradient(layer, t, size, scale); break;
      case 'userShader': drawShader(layer, t, size, scale); break;
      case 'mesh': drawMesh(layer, t, size); break;
      case 'particles': drawEmitter(layer, t, size); break;
      case 'glyphs': drawText(layer, t, size); break;
      case 'offscreen': drawGroup(layer, t, size, scale, depth, null); break;
      case 'transform': drawTransformed(layer, t, size, scale, depth); break;
      case 'captured': drawCaptured(layer, t, size); break;
    }
  }

  /** Draws the scene at time t into the canvas. */
  function draw(t) {
    const size = [canvas.width, canvas.height];
    const scale = [size[0] / data.size[0], size[1] / data.size[1]];
    const bg = data.background;
    gl.viewport(0, 0, size[0], size[1]);
    gl.bindFramebuffer(gl.FRAMEBUFFER, accumulation.framebuffer);
    gl.disable(gl.BLEND);
    gl.clearColor(bg[0], bg[1], bg[2], bg[3]);
    gl.clear(gl.COLOR_BUFFER_BIT);
    current = accumulation;
    for (const layer of data.layers) drawNode(layer, t, size, scale, 0);
    // The resolve pass: the accumulation through the output transform and the dither into the canvas.
    const r = program(data.resolve);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.disable(gl.BLEND);
    gl.useProgram(r.program);
    set2f(r, 'u_pixelSize', size[0], size[1]);
    bindTexture(0, accumulation.texture);
    set1i(r, 'u_destination', 0);
    set4f(r, 'u_background', bg);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    // Nothing stays bound that a later pass could read while drawing into it.
    for (let unit = 0; unit < 5; unit++) bindTexture(unit, null);
    document.documentElement.dataset.welkinTime = String(t);
    if (debug) { const e = gl.getError(); if (e) document.documentElement.dataset.welkinGlError = '0x' + e.toString(16); }
  }

  /** ?debug: the page records GL's error after each frame (data-welkin-gl-error). */
  const debug = query.has('debug');

  /** Calls `body` on every node: the layers, and what groups and transformed layers hold. */
  function everyNode(body) {
    const visit = (n) => {
      body(n);
      if (n.kind === 'offscreen') { n.layers.forEach(visit); if (n.mask) visit(n.mask); }
      if (n.kind === 'transform') { visit(n.plain); visit(n.moved); }
    };
    data.layers.forEach(visit);
  }

  /** Whether any layer, at any depth, is a user shader (it draws into its own float target first). */
  let hasShaders = false;
  everyNode((n) => { if (n.kind === 'userShader') hasShaders = true; });

  // ---- Size and framing -----------------------------------------------------------------------

  const framing = ['contain', 'cover', 'stretch'].includes(query.get('framing')) ? query.get('framing') : data.framing;

  /** Sizes the canvas to the window at the device's pixel ratio: the scene's shape kept (contain,
   *  cover) or squeezed (stretch); points scale with the canvas, as `welkin render --size` does. */
  function layout() {
    const dpr = window.devicePixelRatio || 1;
    const [sw, sh] = data.size;
    const w = window.innerWidth, h = window.innerHeight;
    const fitWidth = Math.min(w, h * sw / sh), coverWidth = Math.max(w, h * sw / sh);
    const cssWidth = framing === 'cover' ? coverWidth : framing === 'stretch' ? w : fitWidth;
    const cssHeight = framing === 'stretch' ? h : cssWidth * sh / sw;
    let pw = Math.max(1, Math.round(cssWidth * dpr)), ph = Math.max(1, Math.round(cssHeight * dpr));
    if (data.fixedScales) {
      // Text layouts and shadow kernels exist for these scales: draw at the smallest that holds the
      // window's pixels (the largest when none does) and let the browser fit the canvas to the box.
      const k = data.fixedScales.find((s) => sw * s >= pw - 0.5 && sh * s >= ph - 0.5) || data.fixedScales[data.fixedScales.length - 1];
      pw = sw * k; ph = sh * k;
    }
    canvas.style.width = cssWidth + 'px';
    canvas.style.height = cssHeight + 'px';
    if (canvas.width === pw && canvas.height === ph && accumulation) return;
    canvas.width = pw;
    canvas.height = ph;
    freeTarget(accumulation);
    freeTarget(layerTarget);
    accumulation = makeTarget(pw, ph, accumulationFormat);
    layerTarget = hasShaders ? makeTarget(pw, ph, gl.RGBA32F) : null;
  }

  // Bars (contain) in the scene's background colour.
  {
    const [r, g, b, a] = data.background;
    const c = (v) => Math.round(Math.min(Math.max(a > 0 ? v / a : 0, 0), 1) * 255);
    stage.style.background = 'rgb(' + c(r) + ',' + c(g) + ',' + c(b) + ')';
  }

  // ---- Clock ----------------------------------------------------------------------------------

  const startParameter = Number(query.get('t') || 0);
  const clock = {
    time: isFinite(startParameter) ? startParameter : 0,
    playing: !(query.has('paused') || query.has('still')),
    origin: null,   // performance.now() and the scene time when the clock last started
  };

  function now() {
    if (!clock.playing || document.hidden || !clock.origin) return clock.time;
    return clock.origin.time + (performance.now() - clock.origin.at) / 1000;
  }

  function setPlaying(playing) {
    clock.time = now();
    clock.playing = playing;
    clock.origin = playing ? { at: performance.now(), time: clock.time } : null;
    if (controls) controls.update();
    request();
  }

  function seek(t) {
    clock.time = t;
    clock.origin = clock.playing ? { at: performance.now(), time: t } : null;
    request();
  }

  // Hidden: the clock stops where it is and nothing is drawn; shown again, it goes on from there.
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) { clock.time = now(); clock.origin = null; } else if (clock.playing) { clock.origin = { at: performance.now(), time: clock.time }; request(); }
  });

  // Shadertoy's mouse: pixels from the bottom-left while the button is down, the click in zw.
  function pointer(e) {
    const r = canvas.getBoundingClientRect();
    mouse.x = (e.clientX - r.left) * canvas.width / r.width;
    mouse.y = (r.bottom - e.clientY) * canvas.height / r.height;
  }
  canvas.addEventListener('pointerdown', (e) => { pointer(e); mouse.down = true; mouse.clickX = mouse.x; mouse.clickY = mouse.y; request(); });
  canvas.addEventListener('pointermove', (e) => { if (mouse.down) { pointer(e); request(); } });
  window.addEventListener('pointerup', () => { mouse.down = false; request(); });

  // ---- Controls (export-web --controls) -------------------------------------------------------

  let controls = null;
  if (data.controls) {
    const bar = document.createElement('div');
    bar.id = 'welkin-controls';
    const play = document.createElement('button');
    const scrub = document.createElement('input');
    scrub.type = 'range'; scrub.min = '0'; scrub.step = '0.01';
    scrub.max = String(Math.max(60, Math.ceil(clock.time)));
    scrub.setAttribute('aria-label', 'Scene time');
    const label = document.createElement('span');
    bar.append(play, scrub, label);
    document.body.appendChild(bar);
    play.addEventListener('click', () => setPlaying(!clock.playing));
    scrub.addEventListener('input', () => seek(Number(scrub.value)));
    controls = {
      update(t = now()) {
        play.textContent = clock.playing ? 'Pause' : 'Play';
        if (t > Number(scrub.max)) scrub.max = String(Math.ceil(t / 60) * 60);
        if (document.activeElement !== scrub) scrub.value = String(t);
        label.textContent = t.toFixed(2) + ' s';
      },
    };
  }
  document.addEventListener('keydown', (e) => { if (e.key === ' ' && e.target === document.body) { e.preventDefault(); setPlaying(!clock.playing); } });

  // ---- Loop -----------------------------------------------------------------------------------

  let pending = false;
  function request() {
    if (pending || !compiled) return;
    pending = true;
    requestAnimationFrame(tick);
  }

  function tick() {
    pending = false;
    if (document.hidden) return;
    layout();
    const t = now();
    draw(t);
    if (controls) controls.update(t);
    if (clock.playing) request();
  }

  window.addEventListener('resize', request);
  canvas.addEventListener('webglcontextlost', (e) => {
    e.preventDefault();
    compiled = null;
    copy = null;
    groupTargets.length = 0;
    blurTargets = null;
    everyNode((n) => {
      delete n.gl;   // simulations stay: they are not GL state
      if (n.buffers) delete n.buffers.state;
      delete n.targets;
      if (n.layouts) for (const L of n.layouts) if (L) delete L.gl;
    });
  });
  canvas.addEventListener('webglcontextrestored', () => { start(); });

  async function start() {
    accumulation = null; layerTarget = null;
    for (const key in samplers) delete samplers[key];
    for (const key in capturedSamplers) delete capturedSamplers[key];
    compiled = [];
    textures = await loadTextures();
    await inflateAtlases();
    await loadCapturedTextures();
    if (clock.playing) clock.origin = { at: performance.now(), time: clock.time };
    layout();
    draw(now());
    if (controls) controls.update();
    // When the first frame was done, in ms since the page began to load (docs/export.md measures it).
    gl.finish();
    document.documentElement.dataset.welkinFirstFrame = String(Math.round(performance.now()));
    console.info('Welkin: first frame ' + Math.round(performance.now()) + ' ms after the page began to load');
    // The programs no frame has needed yet, one per idle moment.
    const rest = data.programs.map((_, i) => i);
    const linkNext = () => {
      if (!compiled) return;
      while (rest.length && compiled[rest[0]]) rest.shift();
      if (!rest.length) return;
      program(rest.shift());
      setTimeout(linkNext, 0);
    };
    setTimeout(linkNext, 0);
    document.documentElement.dataset.welkinReady = '1';
    request();
  }

  start().catch((e) => { if (!document.documentElement.dataset.welkinError) fail(String(e && e.message || e)); });
})();
