/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraBpn2xy(double rbpn[3][3], double *x, double *y)

{

   *x = rbpn[2][0];
   *y = rbpn[2][1];

}
