// HarfBuzz for Swift, with its FreeType integration (hb-ft).
#include <hb.h>
#include <hb-ft.h>
