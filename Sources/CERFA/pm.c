/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"

double eraPm(double p[3])

{
   return sqrt( p[0]*p[0] + p[1]*p[1] + p[2]*p[2] );

}
