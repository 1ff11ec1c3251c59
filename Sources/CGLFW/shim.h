/* Epoxy first: GLFW must not pull in a GL header of its own. */
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
