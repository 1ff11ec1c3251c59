/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

double eraFaju03(double t)

{
   double a;

   a = fmod(0.599546497 + 52.9690962641 * t, ERFA_D2PI);

   return a;

}
