/* ERFA 2.0.0 (Copyright (C) 2013-2021, NumFOCUS Foundation; derived, with permission, from the IAU's SOFA), comments removed by Scripts/vendor-erfa.py: the licence is LICENSE in this folder. */
#include "erfa.h"
#include "erfam.h"

int eraCal2jd(int iy, int im, int id, double *djm0, double *djm)

{
   int j, ly, my;
   long iypmy;

   const int IYMIN = -4799;

   static const int mtab[]
                     = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

   j = 0;

   if (iy < IYMIN) return -1;
   if (im < 1 || im > 12) return -2;

   ly = ((im == 2) && !(iy%4) && (iy%100 || !(iy%400)));

   if ( (id < 1) || (id > (mtab[im-1] + ly))) j = -3;

   my = (im - 14) / 12;
   iypmy = (long) (iy + my);
   *djm0 = ERFA_DJM0;
   *djm = (double)((1461L * (iypmy + 4800L)) / 4L
                 + (367L * (long) (im - 2 - 12 * my)) / 12L
                 - (3L * ((iypmy + 4900L) / 100L)) / 4L
                 + (long) id - 2432076L);

   return j;

}
