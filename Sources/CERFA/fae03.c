/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

double eraFae03(double t)

{
   double a;

   a = fmod(1.753470314 + 628.3075849991 * t, ERFA_D2PI);

   return a;

}
