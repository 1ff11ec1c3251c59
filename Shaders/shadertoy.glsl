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
uniform sampler2D iChannel0;         // the layer's channels[0..3]: PNG bytes, not sRGB-decoded
uniform sampler2D iChannel1;
uniform sampler2D iChannel2;
uniform sampler2D iChannel3;

// Shadertoy defines it as 1 on desktop GPUs (0 on phones); shaders use it to pick their quality.
#define HW_PERFORMANCE 1
