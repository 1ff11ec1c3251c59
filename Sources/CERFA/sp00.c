/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

double eraSp00(double date1, double date2)

{
   double t, sp;

   t = ((date1 - ERFA_DJ00) + date2) / ERFA_DJC;

   sp = -47e-6 * t * ERFA_DAS2R;

   return sp;

}
