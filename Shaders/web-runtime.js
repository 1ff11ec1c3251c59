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

  // ---- Drawing --------------------------------------------------------------------------------

  let programs = [], textures = [], accumulation = null, layerTarget = null;
  const mouse = { x: 0, y: 0, clickX: 0, clickY: 0, down: false };

  function drawGradient(layer, size, scale) {
    const p = programs[layer.program];
    const u = gradientUniforms(layer, size, scale);
    gl.useProgram(p.program);
    set2f(p, 'u_pixelSize', size[0], size[1]);
    set2f(p, 'u_origin', u.origin[0], u.origin[1]);
    set2f(p, 'u_vector', u.vector[0], u.vector[1]);
    set2f(p, 'u_range', u.range[0], u.range[1]);
    set1fv(p, 'u_locations', layer.locations);
    set4fv(p, 'u_colors', layer.colors);
    set1f(p, 'u_opacity', layer.opacity[0]);
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

  function drawShader(layer, t, size, scale) {
    const p = programs[layer.program];
    gl.bindFramebuffer(gl.FRAMEBUFFER, layerTarget.framebuffer);
    gl.disable(gl.BLEND);
    gl.useProgram(p.program);
    const frame = frameNumber(t);
    set1f(p, 'u_time', t);
    set2f(p, 'u_resolution', size[0], size[1]);
    set1i(p, 'u_frame', frame);
    set2f(p, 'u_mouse', mouse.x, mouse.y);
    set2f(p, 'u_pixelScale', scale[0], scale[1]);
    set3f(p, 'iResolution', size[0], size[1], 1);
    set1f(p, 'iTime', t);
    set1f(p, 'iTimeDelta', 1 / 60);
    set1f(p, 'iFrameRate', 60);
    set1i(p, 'iFrame', frame);
    set4f(p, 'iMouse', mouse.down ? [mouse.x, mouse.y, mouse.clickX, mouse.clickY] : [mouse.x, mouse.y, -Math.abs(mouse.clickX), -Math.abs(mouse.clickY)]);
    set4f(p, 'iDate', shadertoyDate(layer.iDate, t));
    set1f(p, 'iSampleRate', 44100);
    set1i(p, layer.alphaUniform, layer.alpha);
    set1fv(p, 'iChannelTime', [0, 0, 0, 0].slice(0, p.uniforms.iChannelTime ? p.uniforms.iChannelTime.size : 4));
    const resolutions = new Array(12).fill(0);
    for (let i = 0; i < 4; i++) {
      const c = layer.channels[i];
      gl.activeTexture(gl.TEXTURE0 + i);
      if (c) {
        const tex = textures[c.texture];
        resolutions[3 * i] = tex.width; resolutions[3 * i + 1] = tex.height; resolutions[3 * i + 2] = 1;
        gl.bindTexture(gl.TEXTURE_2D, tex.texture);
        gl.bindSampler(i, sampler(c.filter, c.wrap));
      } else {
        gl.bindTexture(gl.TEXTURE_2D, null);
        gl.bindSampler(i, null);
      }
      set1i(p, 'iChannel' + i, i);
    }
    gl.activeTexture(gl.TEXTURE0);
    if (p.uniforms.iChannelResolution) set3fv(p, 'iChannelResolution', resolutions.slice(0, 3 * p.uniforms.iChannelResolution.size));
    setUserUniforms(p, layer);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    for (let i = 0; i < 4; i++) { gl.bindSampler(i, null); }

    // layer.frag: clamp, premultiply, × opacity, blended into the accumulation.
    const c = programs[layer.composite];
    gl.bindFramebuffer(gl.FRAMEBUFFER, accumulation.framebuffer);
    gl.enable(gl.BLEND);
    gl.useProgram(c.program);
    set2f(c, 'u_pixelSize', size[0], size[1]);
    bindTexture(4, layerTarget.texture);
    set1i(c, 'u_layer', 4);
    set1f(c, 'u_opacity', layer.opacity[0]);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
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
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    for (const layer of data.layers) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, accumulation.framebuffer);
      gl.enable(gl.BLEND);
      if (layer.kind === 'gradient') drawGradient(layer, size, scale);
      else if (layer.kind === 'shader') drawShader(layer, t, size, scale);
    }
    // The resolve pass: the accumulation through the output transform and the dither into the canvas.
    const r = programs[data.resolve];
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.disable(gl.BLEND);
    gl.useProgram(r.program);
    set2f(r, 'u_pixelSize', size[0], size[1]);
    bindTexture(0, accumulation.texture);
    set1i(r, 'u_destination', 0);
    set4f(r, 'u_background', bg);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    document.documentElement.dataset.welkinTime = String(t);
  }

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
    const pw = Math.max(1, Math.round(cssWidth * dpr)), ph = Math.max(1, Math.round(cssHeight * dpr));
    canvas.style.width = cssWidth + 'px';
    canvas.style.height = cssHeight + 'px';
    if (canvas.width === pw && canvas.height === ph && accumulation) return;
    canvas.width = pw;
    canvas.height = ph;
    freeTarget(accumulation);
    freeTarget(layerTarget);
    accumulation = makeTarget(pw, ph, accumulationFormat);
    layerTarget = data.layers.some((l) => l.kind === 'shader') ? makeTarget(pw, ph, gl.RGBA32F) : null;
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
    if (pending || !programs.length) return;
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
  canvas.addEventListener('webglcontextlost', (e) => { e.preventDefault(); programs = []; });
  canvas.addEventListener('webglcontextrestored', () => { start(); });

  async function start() {
    accumulation = null; layerTarget = null;
    for (const key in samplers) delete samplers[key];
    programs = data.programs.map(link);
    textures = await loadTextures();
    if (clock.playing) clock.origin = { at: performance.now(), time: clock.time };
    layout();
    draw(now());
    if (controls) controls.update();
    document.documentElement.dataset.welkinReady = '1';
    request();
  }

  start().catch((e) => { if (!document.documentElement.dataset.welkinError) fail(String(e && e.message || e)); });
})();
