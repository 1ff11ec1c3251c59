// fontconfig for Swift: family names to font files, and which installed font has a character.
#include <fontconfig/fontconfig.h>
