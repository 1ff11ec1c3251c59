// shadertoy.glsl: the uniforms Shadertoy declares for an image shader, put before a user's
// `mainImage` file (ShadertoyWrapping.swift). Their values, set by UserShaderPass, are listed in
// WelkinCore's Shadertoy.uniforms and in docs/shaders.md ("Shadertoy shaders").

uniform vec3 iResolution;            // render size in pixels, z = 1
uniform float iTime;                 // scene time, seconds
uniform float iTimeDelta;            // 1 / iFrameRate
uniform float iFrameRate;            // Welkin's frame step: Shadertoy.frameRate
uniform int iFrame;                  // frame number
uniform float iChannelTime[4];       // 0: images do not play
uniform vec3 iChannelResolution[4];  // each channel's image size in pixels, z = 1
uniform vec4 iMouse;                 // xy: the mouse in pixels (origin bottom-left); zw: 0
uniform vec4 iDate;                  // year, month - 1, day, seconds of the day
uniform float iSampleRate;           // Shadertoy.sampleRate
// The pass's channels[0..3]: PNG bytes (not sRGB-decoded), a buffer's float picture, noise or the
// keyboard; each declared with the sampler type its input needs (WELKIN_CHANNELn, set by the
// renderer: sampler2D, sampler3D or samplerCube).
#ifndef WELKIN_CHANNEL0
#error a Shadertoy pass is built with WELKIN_CHANNEL0…3 (ShadertoyWrapping.prepare)
#endif
uniform WELKIN_CHANNEL0 iChannel0;
uniform WELKIN_CHANNEL1 iChannel1;
uniform WELKIN_CHANNEL2 iChannel2;
uniform WELKIN_CHANNEL3 iChannel3;

// Shadertoy runs WebGL2 (GLSL ES 3.00), where GL_ES is defined; desktop GLSL reserves GL_ names, so
// each GL_ES in the user's files reads WELKIN_GL_ES (ShadertoyRewrite), defined by the renderer.

// Shadertoy defines it as 1 on desktop GPUs (0 on phones); shaders use it to pick their quality.
#define HW_PERFORMANCE 1
