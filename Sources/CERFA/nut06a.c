/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

void eraNut06a(double date1, double date2, double *dpsi, double *deps)

{
   double t, fj2, dp, de;

   t = ((date1 - ERFA_DJ00) + date2) / ERFA_DJC;

   fj2 = -2.7774e-6 * t;

   eraNut00a(date1, date2, &dp, &de);

   *dpsi = dp + dp * (0.4697e-6 + fj2);
   *deps = de + de * fj2;

}
