#include <epoxy/gl.h>
#include <epoxy/egl.h>
