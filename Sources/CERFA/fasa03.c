/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

double eraFasa03(double t)

{
   double a;

   a = fmod(0.874016757 + 21.3299104960 * t, ERFA_D2PI);

   return a;

}
