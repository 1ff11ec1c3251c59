/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

void eraAtci13(double rc, double dc,
               double pr, double pd, double px, double rv,
               double date1, double date2,
               double *ri, double *di, double *eo)

{

   eraASTROM astrom;

   eraApci13(date1, date2, &astrom, eo);

   eraAtciq(rc, dc, pr, pd, px, rv, &astrom, ri, di);

}
