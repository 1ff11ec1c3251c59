// FreeType for Swift: the headers, and functions for the macros Swift cannot import.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H

/// FT_LOAD_TARGET_NORMAL (a function-like macro).
static inline FT_Int32 welkin_ft_load_target_normal(void) { return FT_LOAD_TARGET_NORMAL; }
/// FT_LOAD_NO_BITMAP as Int32.
static inline FT_Int32 welkin_ft_load_no_bitmap(void) { return FT_LOAD_NO_BITMAP; }
/// FT_LOAD_NO_HINTING as Int32.
static inline FT_Int32 welkin_ft_load_no_hinting(void) { return FT_LOAD_NO_HINTING; }
/// FT_LOAD_DEFAULT as Int32.
static inline FT_Int32 welkin_ft_load_default(void) { return FT_LOAD_DEFAULT; }

/// The sentence for a FreeType error code (FT_Error_String returns NULL on Debian's build).
static inline const char *welkin_ft_error_string(FT_Error error) {
#undef FTERRORS_H_
#undef FT_ERR_PREFIX
#define FT_ERR_PREFIX FT_Err_
#define FT_ERRORDEF(e, v, s) case v: return s;
#define FT_ERROR_START_LIST switch (error) {
#define FT_ERROR_END_LIST default: return "unknown FreeType error"; }
#include FT_ERRORS_H
}
