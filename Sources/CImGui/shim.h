/* Dear ImGui (Debian's libimgui-dev: a static libimgui.a with the GLFW and OpenGL 3 backends).
   C++ only: WelkinPanelShim includes it and offers Swift a plain C interface. */
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
