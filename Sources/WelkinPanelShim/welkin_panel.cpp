// WelkinPanelShim: welkin_panel.h on Dear ImGui 1.86 (Debian's libimgui-dev) and its GLFW and
// OpenGL 3 backends. Kept to pass-throughs: what the panel shows is decided in Swift (Viewer+Panel).

#include "welkin_panel.h"

// imgui.h 1.86 memsets classes with constructors; clang 17+ warns about it on every include.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#pragma clang diagnostic ignored "-Wnontrivial-memcall"
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#pragma clang diagnostic pop
#include <string>

namespace {
// ImGui keeps the ini path's pointer, not a copy.
std::string iniPath;
}

extern "C" {

bool wp_init(void *window, const char *ini_path, float scale) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    if (ini_path) {
        iniPath = ini_path;
        io.IniFilename = iniPath.c_str();
    } else {
        io.IniFilename = nullptr;
    }
    io.LogFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGuiStyle &style = ImGui::GetStyle();
    style.WindowRounding = 0;
    style.WindowBorderSize = 0;
    style.Colors[ImGuiCol_WindowBg].w = 0.92f;
    // X11 reports window and framebuffer sizes equal, so nothing scales by itself: a 13 px font
    // times the content scale, and every size of the style with it.
    ImFontConfig font;
    font.SizePixels = 13.0f * (scale > 0 ? scale : 1);
    io.Fonts->AddFontDefault(&font);
    if (scale > 1) style.ScaleAllSizes(scale);
    if (!ImGui_ImplGlfw_InitForOpenGL(static_cast<GLFWwindow *>(window), true)) return false;
    return ImGui_ImplOpenGL3_Init("#version 330 core");
}

void wp_new_frame(void) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void wp_render(void) {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void wp_save_settings(void) {
    if (!iniPath.empty()) ImGui::SaveIniSettingsToDisk(iniPath.c_str());
}

void wp_clear_input(void) { ImGui::GetIO().ClearInputCharacters(); }

bool wp_want_keyboard(void) { return ImGui::GetIO().WantCaptureKeyboard; }
bool wp_want_mouse(void) { return ImGui::GetIO().WantCaptureMouse; }
bool wp_any_item_active(void) { return ImGui::IsAnyItemActive(); }

bool wp_begin_side_panel(const char *title, float framebuffer_width, float framebuffer_height, float default_width) {
    // The width is the user's (remembered in the ini file); the height and the right edge are the window's.
    ImGui::SetNextWindowSize(ImVec2(default_width, framebuffer_height), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(default_width * 0.6f, framebuffer_height),
                                        ImVec2(framebuffer_width * 0.8f > default_width ? framebuffer_width * 0.8f : default_width,
                                               framebuffer_height));
    ImGui::SetNextWindowPos(ImVec2(framebuffer_width, 0), ImGuiCond_Always, ImVec2(1, 0));
    return ImGui::Begin(title, nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
}

bool wp_begin_overlay(const char *title, float x, float y, float width) {
    ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_Always, ImVec2(0, 1));
    ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                             ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize;
    return ImGui::Begin(title, nullptr, flags);
}

void wp_end(void) { ImGui::End(); }
float wp_window_width(void) { return ImGui::GetWindowWidth(); }
bool wp_begin_child(const char *id, float height) { return ImGui::BeginChild(id, ImVec2(0, height), true); }
void wp_end_child(void) { ImGui::EndChild(); }

void wp_text(const char *text) { ImGui::TextUnformatted(text); }
void wp_text_disabled(const char *text) { ImGui::TextDisabled("%s", text); }
void wp_text_colored(float r, float g, float b, float a, const char *text) { ImGui::TextColored(ImVec4(r, g, b, a), "%s", text); }
void wp_text_wrapped(const char *text) { ImGui::TextWrapped("%s", text); }
void wp_separator(void) { ImGui::Separator(); }
void wp_same_line(float offset) { ImGui::SameLine(offset); }
void wp_spacing(void) { ImGui::Spacing(); }
void wp_set_next_item_width(float width) { ImGui::SetNextItemWidth(width); }
void wp_push_id(int id) { ImGui::PushID(id); }
void wp_push_id_string(const char *id) { ImGui::PushID(id); }
void wp_pop_id(void) { ImGui::PopID(); }
void wp_tooltip(const char *text) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}
bool wp_collapsing_header(const char *label, bool default_open) {
    return ImGui::CollapsingHeader(label, default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
}
bool wp_tree_node(const char *label, bool default_open) {
    return ImGui::TreeNodeEx(label, default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
}
void wp_tree_pop(void) { ImGui::TreePop(); }
void wp_begin_disabled(bool disabled) { ImGui::BeginDisabled(disabled); }
void wp_end_disabled(void) { ImGui::EndDisabled(); }
float wp_font_size(void) { return ImGui::GetFontSize(); }

bool wp_button(const char *label) { return ImGui::Button(label); }
bool wp_selectable(const char *label, bool selected, float width) {
    return ImGui::Selectable(label, selected, 0, ImVec2(width, 0));
}
bool wp_checkbox(const char *label, bool *value) { return ImGui::Checkbox(label, value); }
bool wp_slider_float(const char *label, float *value, float min, float max, const char *format) {
    return ImGui::SliderFloat(label, value, min, max, format);
}
bool wp_drag_float(const char *label, float *value, float speed, float min, float max, const char *format) {
    return ImGui::DragFloat(label, value, speed, min, max, format, ImGuiSliderFlags_AlwaysClamp);
}
bool wp_slider_float2(const char *label, float value[2], float min, float max, const char *format) {
    return ImGui::SliderFloat2(label, value, min, max, format);
}
bool wp_drag_float2(const char *label, float value[2], float speed, float min, float max, const char *format) {
    return ImGui::DragFloat2(label, value, speed, min, max, format, ImGuiSliderFlags_AlwaysClamp);
}
bool wp_drag_float_range(const char *label, float *low, float *high, float speed, float min, float max, const char *format) {
    return ImGui::DragFloatRange2(label, low, high, speed, min, max, format, nullptr, ImGuiSliderFlags_AlwaysClamp);
}
bool wp_slider_int(const char *label, int *value, int min, int max, const char *format) {
    return ImGui::SliderInt(label, value, min, max, format);
}
bool wp_drag_int(const char *label, int *value, float speed, int min, int max, const char *format) {
    return ImGui::DragInt(label, value, speed, min, max, format, ImGuiSliderFlags_AlwaysClamp);
}
bool wp_color_edit4(const char *label, float rgba[4]) {
    return ImGui::ColorEdit4(label, rgba, ImGuiColorEditFlags_AlphaBar | ImGuiColorEditFlags_AlphaPreviewHalf);
}
bool wp_combo(const char *label, int *current, const char *const items[], int count) {
    return ImGui::Combo(label, current, items, count);
}
bool wp_input_text(const char *label, char *buffer, int size) {
    return ImGui::InputText(label, buffer, (size_t)size, ImGuiInputTextFlags_EnterReturnsTrue);
}

bool wp_context_menu(const char *id, const char *const items[], int count, int *chosen) {
    bool picked = false;
    if (ImGui::BeginPopupContextItem(id)) {
        for (int i = 0; i < count; i++) {
            if (ImGui::Selectable(items[i])) { *chosen = i; picked = true; }
        }
        ImGui::EndPopup();
    }
    return picked;
}

// The playhead over the item just drawn.
static void playhead(float marker) {
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    float x = a.x + (b.x - a.x) * (marker < 0 ? 0 : marker > 1 ? 1 : marker);
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), IM_COL32(255, 210, 64, 255), 1.5f);
}

void wp_plot_curve(const char *id, const float *first, const float *second, int count, float low, float high,
                   float width, float height, float marker) {
    ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::PlotLines(id, first, count, 0, NULL, low, high, ImVec2(width, height));
    if (second) {
        // The second curve over the first, in another colour, on the same scale.
        ImDrawList *list = ImGui::GetWindowDrawList();
        ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        float span = high > low ? high - low : 1;
        for (int i = 1; i < count; i++) {
            float x0 = a.x + (b.x - a.x) * (i - 1) / (count - 1), x1 = a.x + (b.x - a.x) * i / (count - 1);
            float y0 = b.y - (b.y - a.y) * (second[i - 1] - low) / span, y1 = b.y - (b.y - a.y) * (second[i] - low) / span;
            list->AddLine(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(120, 200, 255, 255), 1.0f);
        }
    }
    (void)start;
    playhead(marker);
}

void wp_color_strip(const char *id, const float *rgba, int count, float width, float height, float marker) {
    ImGui::InvisibleButton(id, ImVec2(width, height));
    ImDrawList *list = ImGui::GetWindowDrawList();
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    for (int i = 0; i < count; i++) {
        float x0 = a.x + (b.x - a.x) * i / count, x1 = a.x + (b.x - a.x) * (i + 1) / count;
        list->AddRectFilled(ImVec2(x0, a.y), ImVec2(x1, b.y),
                            ImGui::ColorConvertFloat4ToU32(ImVec4(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3])));
    }
    playhead(marker);
}

void wp_draw_circle(float x, float y, float radius, float r, float g, float b, float a, bool filled) {
    ImDrawList *list = ImGui::GetBackgroundDrawList();
    ImU32 color = ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, a));
    if (filled) list->AddCircleFilled(ImVec2(x, y), radius, color);
    else list->AddCircle(ImVec2(x, y), radius, color, 0, 2.0f);
}
void wp_draw_line(float x0, float y0, float x1, float y1, float r, float g, float b, float a) {
    ImGui::GetBackgroundDrawList()->AddLine(ImVec2(x0, y0), ImVec2(x1, y1), ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, a)), 1.0f);
}

void wp_mouse_position(float *x, float *y) {
    ImVec2 p = ImGui::GetIO().MousePos;
    *x = p.x;
    *y = p.y;
}
bool wp_mouse_clicked(void) { return ImGui::IsMouseClicked(0); }
bool wp_mouse_down(void) { return ImGui::IsMouseDown(0); }
bool wp_mouse_released(void) { return ImGui::IsMouseReleased(0); }
bool wp_key_shift(void) { return ImGui::GetIO().KeyShift; }

bool wp_item_deactivated_after_edit(void) { return ImGui::IsItemDeactivatedAfterEdit(); }
bool wp_item_active(void) { return ImGui::IsItemActive(); }

}
