// WelkinGL: OpenGL through libepoxy's function pointers (Swift cannot import epoxy's macros).

import CEpoxy
import WelkinCore
