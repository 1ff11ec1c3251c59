/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraPom00(double xp, double yp, double sp, double rpom[3][3])

{

   eraIr(rpom);
   eraRz(sp, rpom);
   eraRy(-xp, rpom);
   eraRx(-yp, rpom);

}
