/* WelkinPanelShim: the few Dear ImGui calls the viewer's panel makes, as plain C functions.
 *
 * Swift imports this header (C, no C++); welkin_panel.cpp implements it on Dear ImGui 1.86 with its
 * GLFW and OpenGL 3 backends. Only this target depends on CImGui (PLATFORM-NOTES, "Dear ImGui").
 * Labels follow ImGui's rules: text after "##" is an id only. */
#ifndef WELKIN_PANEL_H
#define WELKIN_PANEL_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Life cycle. `window` is the GLFWwindow; the viewer's own GLFW callbacks must be installed before
   (the backend chains to them). `ini_path` is copied (NULL: no ini file). `scale`: HiDPI factor. */
bool wp_init(void *window, const char *ini_path, float scale);
void wp_new_frame(void);
void wp_render(void);
/* Writes the ini file now (the viewer exits without tearing ImGui down). */
void wp_save_settings(void);
/* Forgets characters typed while the panel was hidden. */
void wp_clear_input(void);

bool wp_want_keyboard(void);
bool wp_want_mouse(void);
bool wp_any_item_active(void);

/* Windows. The side panel: docked to the right edge, full height, its width remembered. */
bool wp_begin_side_panel(const char *title, float framebuffer_width, float framebuffer_height, float default_width);
/* The error overlay: a window of wrapped text at the bottom left, over the picture. */
bool wp_begin_overlay(const char *title, float x, float y, float width);
void wp_end(void);
float wp_window_width(void);
bool wp_begin_child(const char *id, float height);
void wp_end_child(void);

/* Layout and text. */
void wp_text(const char *text);
void wp_text_disabled(const char *text);
void wp_text_colored(float r, float g, float b, float a, const char *text);
void wp_text_wrapped(const char *text);
void wp_separator(void);
void wp_same_line(float offset);
void wp_spacing(void);
void wp_set_next_item_width(float width);
void wp_push_id(int id);
void wp_push_id_string(const char *id);
void wp_pop_id(void);
void wp_tooltip(const char *text);
bool wp_collapsing_header(const char *label, bool default_open);
bool wp_tree_node(const char *label, bool default_open);
void wp_tree_pop(void);
void wp_begin_disabled(bool disabled);
void wp_end_disabled(void);
float wp_font_size(void);

/* Widgets: each returns true when the user changed the value this frame. */
bool wp_button(const char *label);
bool wp_selectable(const char *label, bool selected, float width);
bool wp_checkbox(const char *label, bool *value);
bool wp_slider_float(const char *label, float *value, float min, float max, const char *format);
bool wp_drag_float(const char *label, float *value, float speed, float min, float max, const char *format);
bool wp_slider_float2(const char *label, float value[2], float min, float max, const char *format);
bool wp_drag_float2(const char *label, float value[2], float speed, float min, float max, const char *format);
bool wp_drag_float_range(const char *label, float *low, float *high, float speed, float min, float max, const char *format);
bool wp_slider_int(const char *label, int *value, int min, int max, const char *format);
bool wp_drag_int(const char *label, int *value, float speed, int min, int max, const char *format);
bool wp_color_edit4(const char *label, float rgba[4]);
bool wp_combo(const char *label, int *current, const char *const items[], int count);
/* A one-line text field editing `buffer` (`size` bytes, NUL-terminated): true when Enter is pressed in it. */
bool wp_input_text(const char *label, char *buffer, int size);

/* A right-click menu on the item just drawn: true when one of `count` items was chosen (its index
   in *chosen). */
bool wp_context_menu(const char *id, const char *const items[], int count, int *chosen);

/* An animated property over the timeline: `count` samples of one or two curves (`second` may be
   NULL: a point's y), scaled to [low, high], `width` × `height` pixels, with a vertical line at
   `marker` (0…1 across: the playhead). */
void wp_plot_curve(const char *id, const float *first, const float *second, int count, float low, float high,
                   float width, float height, float marker);
/* A colour over the timeline: `count` straight RGBA colours side by side, with the playhead. */
void wp_color_strip(const char *id, const float *rgba, int count, float width, float height, float marker);

/* Drawing over the picture, behind the panel's windows (window pixel coordinates). */
void wp_draw_circle(float x, float y, float radius, float r, float g, float b, float a, bool filled);
void wp_draw_line(float x0, float y0, float x1, float y1, float r, float g, float b, float a);

/* The mouse as ImGui sees it this frame (button 0: the left one). */
void wp_mouse_position(float *x, float *y);
bool wp_mouse_clicked(void);
bool wp_mouse_down(void);
bool wp_mouse_released(void);
bool wp_key_shift(void);

/* The last widget: was it released after changing its value, is it being held. */
bool wp_item_deactivated_after_edit(void);
bool wp_item_active(void);

#ifdef __cplusplus
}
#endif

#endif
